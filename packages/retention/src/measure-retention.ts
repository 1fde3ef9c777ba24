import type { Conversation } from '@ctx/core';
import { inferWorkspaceRoot } from '@ctx/strategy-utils';
import { measureErrors } from './measure-errors.js';
import { measureFileStates } from './measure-file-states.js';
import { measureThinking } from './measure-thinking.js';
import { measureUserTexts } from './measure-user-texts.js';
import { RetainedContent } from './retained-content.js';
import type { RetentionMeasure } from './retention-measure.js';

/** What survived a compression, per kind of content that matters. */
export interface RetentionReport {
  /** each user text of `before` appears verbatim (as a whole text block) in a human entry of `after` */
  readonly userTexts: RetentionMeasure;
  /** latest known state of each file read in `before` is still recoverable from `after` */
  readonly fileStates: RetentionMeasure;
  /** error tool results of `before` still present (same callId, same result) in `after` */
  readonly errors: RetentionMeasure;
  /** thinking blocks of `after` that are byte-identical to one of `before` (a modified one is missing); total = thinking blocks in `after` */
  readonly thinking: RetentionMeasure;
}

/** Options of {@link measureRetention}. */
export interface MeasureRetentionOptions {
  /**
   * The directory relative tool paths resolve against (two spellings of one file must count once).
   * @default the `cwd` Claude Code recorded on the first entry of `before` that has one, else `/`
   */
  readonly workspaceRoot?: string;
}

/**
 * Measures what `after` (a compressed history) kept of what matters in `before` (its input): user texts, the
 * latest state of every file read, errors, and intact thinking. Each measure is `kept / total` plus up to 20
 * descriptions of what is missing; `measureRetention(x, x)` is 1 everywhere.
 *
 * **User texts**: each text `listUserTexts` finds in `before` (typed by the user; not tool results, harness
 * reminders, command wrappers or generated entries) must be the whole text of a text block of a human entry in
 * `after`, leading and trailing whitespace aside (a block that still carries its `<system-reminder>` matches by its
 * typed part). Matched as a multiset: a prompt typed twice needs two blocks.
 *
 * **File states** — the latest known state of a file, the definition strategy READMEs quote. Using
 * `classifyHistoryToolCalls` (`@ctx/strategy-utils`) over `before`, for each file path that was read (a call of
 * kind `read` whose result is a success):
 * 1. Its evidence is the last full-content evidence — the last successful whole-file read result, or the last
 *    whole-file write (create, overwrite, delete) — plus every later partial change (edit, append, insertion) of
 *    that path, plus the latest partial read of each line range made after a change whose effect cannot be
 *    computed from its call (see 3; before such a change a partial read shows nothing new). A write or edit whose
 *    tool reported an error did not happen, except for shell commands (part of the command may have run). A file
 *    only ever read in part has no full-content evidence: its evidence is the latest read of each range and the
 *    changes made after the first of those reads.
 * 2. The state is kept when every piece of evidence is still present in `after`: a read whose result answers the
 *    same call id unchanged, or whose text (with or without appended `<system-reminder>`s) occurs verbatim in a
 *    block of `after` — as a tool result's or text block's whole text, or inside a larger one (a strategy may
 *    fold a file into a reconstructed text); a write or edit call present with the same name and parameters, or,
 *    for a write, its written content occurring in `after`.
 * 3. Or when `after` holds the file's reconstructed content: the last full evidence's text (as shown, and without
 *    line numbers when the read tool numbered its lines) or written content, with each later edit's old → new
 *    replacements applied in order, occurring verbatim in a block of `after`. Edits that are not text replacements
 *    (line insertions, shell edits) leave the content unknown, so only rule 2 can keep such a file.
 * Everything else counts as lost: a file is kept only when the model could still know its latest content.
 *
 * **Errors**: each tool result of `before` that `classifyToolResult` judges an error must be in `after` with the
 * same call id and the same result (key order aside).
 *
 * **Thinking**: each thinking block of `after` must be byte-identical to a thinking block of `before`; the total is
 * the number of thinking blocks in `after` (dropping thinking whole is allowed, editing it is not).
 *
 * Only the histories are compared (`system` and `tools` are not compressed). Linear in the size of both histories,
 * plus one substring search over `after`'s text per piece of evidence that is not an exact block text.
 *
 * @param before - The conversation given to the strategy.
 * @param after - The conversation it produced.
 * @param options - `workspaceRoot` for relative tool paths.
 * @returns One measure per kind of content; missing items name entries of `before` (of `after` for thinking).
 * @example
 * ```ts
 * const report = measureRetention(conversation, { ...conversation, history: result.newHistory });
 * if (report.userTexts.fraction < 1) console.warn('user texts lost:', report.userTexts.missing);
 * console.log(`file states kept: ${(report.fileStates.fraction * 100).toFixed(0)}%`);
 * ```
 */
export function measureRetention(
  before: Conversation,
  after: Conversation,
  options: MeasureRetentionOptions = {},
): RetentionReport {
  const workspaceRoot = options.workspaceRoot ?? inferWorkspaceRoot(before.history);
  const retained = new RetainedContent(after.history);
  return {
    userTexts: measureUserTexts(before.history, after.history),
    fileStates: measureFileStates(before.history, retained, workspaceRoot),
    errors: measureErrors(before.history, retained),
    thinking: measureThinking(before.history, after.history),
  };
}
