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
