import type { JsonValue, ToolCallBlock } from '@ctx/core';
import type { FileState } from './file-state-evidence.js';

/** One old → new text replacement an edit call asks for. */
interface Replacement {
  readonly oldText: string;
  readonly newText: string;
  readonly all: boolean;
}

type ParameterRecord = { readonly [key: string]: JsonValue };

function asRecord(value: JsonValue | undefined): ParameterRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ParameterRecord) : undefined;
}

/** A replacement from `old_string`/`new_string` (Claude Code, gemini-cli) or `old_str`/`new_str` (str_replace_editor). */
function replacementOf(record: ParameterRecord): Replacement | undefined {
  const oldText = record.old_string ?? record.old_str;
  const newText = record.new_string ?? record.new_str ?? '';
  if (typeof oldText !== 'string' || oldText === '' || typeof newText !== 'string') return undefined;
  const expected = record.expected_replacements;
  return { oldText, newText, all: record.replace_all === true || (typeof expected === 'number' && expected > 1) };
}

/** The replacements of an edit call, in order; undefined when the call is not a text replacement (or unreadable). */
function replacementsOf(call: ToolCallBlock): Replacement[] | undefined {
  const parameters = asRecord(call.parameters);
  if (parameters === undefined) return undefined;
  const edits = parameters.edits;
  if (Array.isArray(edits)) {
    const replacements = (edits as readonly JsonValue[]).map((edit) => {
      const record = asRecord(edit);
      return record === undefined ? undefined : replacementOf(record);
    });
    return replacements.every((replacement) => replacement !== undefined) ? replacements : undefined;
  }
  const single = replacementOf(parameters);
  return single === undefined ? undefined : [single];
}

/** Applies a replacement the way the editing tools do; undefined when the old text is missing or ambiguous. */
function applyReplacement(content: string, { oldText, newText, all }: Replacement): string | undefined {
  const first = content.indexOf(oldText);
  if (first === -1) return undefined;
  if (all) return content.split(oldText).join(newText);
  // The tools refuse an ambiguous replacement; if this content has two matches it is not the text they edited.
  if (content.indexOf(oldText, first + oldText.length) !== -1) return undefined;
  return content.slice(0, first) + newText + content.slice(first + oldText.length);
}

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
    const replacements = replacementsOf(item.call);
    if (replacements !== undefined) {
      candidates = candidates.flatMap((candidate) => {
        let content: string | undefined = candidate;
        for (const replacement of replacements) {
          if (content === undefined) break;
          content = applyReplacement(content, replacement);
        }
        return content === undefined ? [] : [content];
      });
    }
    if (replacements === undefined || candidates.length === 0) return { contents: [], unknownFrom: index };
  }
  return { contents: candidates, unknownFrom: state.later.length };
}
