// Shared by the scripts that regenerate README sections from measurements (corpus, preset and bench results).
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Replaces the text from the `start` marker to the `end` marker (both included) of `readme` with `lines` joined by
 * newlines (`lines` carry the markers themselves). Exits the process with 1 and a message when a marker is missing.
 *
 * @param {string} readme - the README's path
 * @param {string} start - the opening marker, e.g. `<!-- bench-results:start -->`
 * @param {string} end - the closing marker
 * @param {readonly string[]} lines - the new section, markers included
 */
export function replaceReadmeSection(readme, start, end, lines) {
  const text = readFileSync(readme, 'utf8');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1) {
    console.error(`README.md has no ${start} … ${end} section`);
    process.exit(1);
  }
  writeFileSync(readme, `${text.slice(0, from)}${lines.join('\n')}${text.slice(to + end.length)}`);
}
