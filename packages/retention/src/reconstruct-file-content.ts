import { applyEditReplacement, editReplacementsOf } from '@ctx/strategy-utils';
import type { FileState } from './file-state-evidence.js';

const numberedLine = /^\s*\d+(?:\t|→)/;
const catHeader = /^Here's the result of running `cat -n` on [^\n]*:\n/;

/**
 * The file content without the line numbers a read tool put in front of each line (`cat -n`, Claude Code `Read`,
 * `str_replace_editor view`), or undefined when the text is not numbered that way. Harness reminders appended to a
 * read result are not content.
 */
function withoutLineNumbers(text: string): string | undefined {
  const body = text
    .replace(catHeader, '')
    .replace(/<system-reminder>[\s\S]*?(?:<\/system-reminder>|$)/g, '')
    .replace(/\s+$/, '');
  const lines = body.split('\n');
  if (lines.length === 0 || !lines.every((line) => numberedLine.test(line))) return undefined;
  return lines.map((line) => line.replace(numberedLine, '')).join('\n');
}

/** What can be computed of a file's latest content from its evidence. */
export interface ReconstructedFile {
  /** Candidate contents after every change (one per base form that accepted every replacement); empty when unknown. */
  readonly contents: readonly string[];
  /**
   * Index in `state.later` of the first change whose effect cannot be computed; `later.length` when every change
   * applied, -1 when there is no content to start from. Partial reads after this point are the only way to know the
   * changed lines.
   */
  readonly unknownFrom: number;
}

/** The content a file's full evidence shows: the read as shown (and without line numbers), or the written text. */
function baseContents(state: FileState): string[] {
  const { full } = state;
  if (full === undefined) return [];
  if (full.kind === 'write') return full.content === undefined ? [] : [full.content];
  const plain = withoutLineNumbers(full.text);
  return plain === undefined ? [full.text] : [full.text, plain];
}

/**
 * The file's content after the changes that follow its last full-content evidence, where that can be computed:
 * the last whole read's text (as shown, and without line numbers when it had them) or the last write's content,
 * with every later edit's old → new replacements applied in order. Partial reads change nothing. A change that is
 * not a text replacement (a line insertion, a shell `sed -i`, a delete) or whose old text is missing or ambiguous
 * makes the content unknown from there on.
 *
 * @param state - A file's latest state evidence.
 * @returns The candidate contents and where the content became unknown.
 */
export function reconstructFileContent(state: FileState): ReconstructedFile {
  let candidates = baseContents(state);
  if (candidates.length === 0) return { contents: [], unknownFrom: -1 };
  for (const [index, item] of state.later.entries()) {
    if (item.kind !== 'edit') continue;
    const replacements = editReplacementsOf(item.call);
    if (replacements !== undefined) {
      candidates = candidates.flatMap((candidate) => {
        let content: string | undefined = candidate;
        for (const replacement of replacements) {
          if (content === undefined) break;
          content = applyEditReplacement(content, replacement);
        }
        return content === undefined ? [] : [content];
      });
    }
    if (replacements === undefined || candidates.length === 0) return { contents: [], unknownFrom: index };
  }
  return { contents: candidates, unknownFrom: state.later.length };
}
