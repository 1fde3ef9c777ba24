import { z } from 'zod';

/** The settings schema; defaults live here. */
export const topDownTruncationSettingsSchema = z.strictObject({
  /**
   * Entries always kept at the end of the history, even when the target cannot be met without dropping them
   * (spec 000 TopDownTruncationStrategy keeps at least 2).
   * @default 2
   */
  minEntriesKept: z.int().min(1, 'Expected an integer ≥ 1').default(2),
  /**
   * Keep the first user message — the first human entry holding text the user typed (`findFirstUserMessage` from
   * `@ctx/strategy-utils`: not a tool result, harness text or a generated entry), in agent runs the task statement —
   * as truncation at providers does: the entries from the start through that message stay, verbatim, and the
   * oldest entries after them are dropped, with a notice in their place. The kept head counts against the target;
   * when it alone is over the target it is kept anyway and the result says `target-not-met`. `false`: spec 000's
   * behaviour (drop from the very start, the task included).
   * @default true
   */
  keepFirstUserMessage: z.boolean().default(true),
  /**
   * When the entries it must keep are still over the target (a newest tool output larger than the window), cut the
   * largest tool results among them to their beginning and end, with a marker, until the target is met
   * (`cutOversizedToolResults` from `@ctx/core`). Tool calls and results stay paired.
   * @default true
   */
  cutOversizedToolResults: z.boolean().default(true),
});

/** Settings of the top-down truncation strategy, defaults filled in. */
export type TopDownTruncationSettings = z.output<typeof topDownTruncationSettingsSchema>;

/** Settings as a user writes them: every option optional. */
export type TopDownTruncationSettingsInput = z.input<typeof topDownTruncationSettingsSchema>;
