import { z } from 'zod';

/** The settings schema; defaults live here. */
export const losslessSettingsSchema = z.strictObject({
  /**
   * Spec 004 FR-LC-001: a read whose lines were shown before (by an earlier read, or by the call that wrote them)
   * points at them instead of repeating them; an unchanged re-read becomes one reference.
   * @default true
   */
  deduplicateFileReads: z.boolean().default(true),
  /**
   * Spec 004 FR-LC-002: the same for every other tool result (command output, listings, searches): a repeated
   * output becomes one reference, and repeated lines inside a changed output point at their earlier copy.
   * @default true
   */
  consolidateToolResults: z.boolean().default(true),
  /**
   * Spec 004 FR-LC-004: a todo list superseded by a later one is replaced by a pointer to it (the original is kept
   * in the entry's record), and a harness status block (`<system-reminder>`) repeated from an earlier result gets
   * its own short marker. Superseded lists are removed by `compress` only: it rewrites older entries, which
   * `optimize` never does.
   * @default true
   */
  removeObsoleteState: z.boolean().default(true),
  /**
   * Lines a tool call's parameters hold (a `Write`'s content, an `Edit`'s strings, a here-document in a shell
   * command) count as shown: a later read of the file points at them.
   * @default true
   */
  referenceToolCallParameters: z.boolean().default(true),
  /**
   * Also rewrite the parameters of the model's own tool calls: lines a call repeats from earlier output or earlier
   * calls (a script rewritten with a here-document, an `Edit`'s `old_string` copied from a read) become references,
   * like in results. Calls of a turn with signed thinking are never rewritten. Off by default: the model sees its
   * own earlier actions with markers in them, which it might imitate.
   * @default false
   */
  rewriteToolCallParameters: z.boolean().default(true),
  /**
   * Keep error results wholly verbatim. Off by default: an error result stays its own block (FR-LC-002 "always keep
   * error results separate": never merged into or dropped for another result), its new lines and its last
   * `errorTailLines` lines stay verbatim, and only lines it repeats from earlier output above that tail become
   * references. Either way an error result can be the source of a later reference.
   * @default false
   */
  keepErrorResults: z.boolean().default(false),
  /**
   * Non-blank lines at the end of an error result that always stay verbatim, even when repeated: where the failure
   * is reported (the final exception, the failing assertion, the test summary). At least 1, so an error result is
   * never only references.
   * @default 5
   */
  errorTailLines: z.int().min(1, 'Expected an integer ≥ 1').default(5),
  /**
   * The smallest run of repeated text a reference replaces, in characters (leading indentation not counted). A run
   * must also be at least twice as long as its marker, so that a reference always saves tokens.
   * @default 200
   */
  minReferenceCharacters: z.int().min(40, 'Expected an integer ≥ 40').default(200),
});

/** Settings of the lossless strategy, defaults filled in. */
export type LosslessSettings = z.output<typeof losslessSettingsSchema>;

/** Settings as a user writes them: every option optional. */
export type LosslessSettingsInput = z.input<typeof losslessSettingsSchema>;
