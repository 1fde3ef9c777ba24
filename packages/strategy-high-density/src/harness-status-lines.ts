/**
 * The status lines SWE-agent's harness appends to every observation: `(Open file: /path)` and `(Current
 * directory: /path)`. Tool semantics read them (the open file is the target of later `edit` calls; the directory is
 * the workspace relative paths resolve against), so a pass that replaces a result's payload keeps them: otherwise
 * the next pass would classify later calls differently.
 */
export interface HarnessStatus {
  /** The last `(Open file: …)` path; `null` for `n/a`; undefined when the text has none. Not normalized. */
  readonly openFile: string | null | undefined;
  /** The last `(Current directory: …)` path when it is absolute (templates such as `<cwd>` are skipped). */
  readonly directory: string | undefined;
  /** The status lines as they appear, newline-joined, to append to a replacement (empty when there are none). */
  readonly lines: string;
}

const openFileLine = /\(Open file: ([^)\n]*)\)/g;
const directoryLine = /\(Current directory: ([^)\n]*)\)/g;
// What follows the `(` of each line, and the code unit each starts with.
const openFilePrefix = 'Open file: ';
const directoryPrefix = 'Current directory: ';
const capitalO = 79;
const capitalC = 67;

const noStatus: HarnessStatus = Object.freeze({ openFile: undefined, directory: undefined, lines: '' });

/** Which of the two status line openings the pieces contain, found in one pass over their `(` characters. */
function statusOpenings(pieces: readonly string[]): { readonly openFile: boolean; readonly directory: boolean } {
  let openFile = false;
  let directory = false;
  for (const text of pieces) {
    let at = text.indexOf('(');
    while (at !== -1 && !(openFile && directory)) {
      const next = text.charCodeAt(at + 1);
      if (next === capitalO) openFile ||= text.startsWith(openFilePrefix, at + 1);
      else if (next === capitalC) directory ||= text.startsWith(directoryPrefix, at + 1);
      at = text.indexOf('(', at + 1);
    }
  }
  return { openFile, directory };
}

function lastMatch(pieces: readonly string[], pattern: RegExp): string | undefined {
  let last: string | undefined;
  for (const text of pieces) for (const match of text.matchAll(pattern)) last = match[1];
  return last?.trim();
}

/**
 * Reads the harness status lines of a tool result's text, given as the pieces it is made of (`toolResultParts`
 * from `@ctx/strategy-utils`: joined by line breaks, which no status line spans). Searching for each opening whole
 * would take two passes over the text, each slower on text with characters beyond Latin-1; joining the pieces would
 * copy it.
 *
 * @param pieces - The result's text, in pieces.
 * @returns What the lines say.
 */
export function readHarnessStatus(pieces: readonly string[]): HarnessStatus {
  const { openFile: hasOpenFile, directory: hasDirectory } = statusOpenings(pieces);
  if (!hasOpenFile && !hasDirectory) return noStatus;
  const openFile = hasOpenFile ? lastMatch(pieces, openFileLine) : undefined;
  const rawDirectory = hasDirectory ? lastMatch(pieces, directoryLine) : undefined;
  const lines: string[] = [];
  if (openFile !== undefined) lines.push(`(Open file: ${openFile})`);
  if (rawDirectory !== undefined) lines.push(`(Current directory: ${rawDirectory})`);
  return {
    openFile: openFile === undefined ? undefined : openFile === 'n/a' ? null : openFile,
    directory: rawDirectory?.startsWith('/') === true ? rawDirectory : undefined,
    lines: lines.join('\n'),
  };
}
