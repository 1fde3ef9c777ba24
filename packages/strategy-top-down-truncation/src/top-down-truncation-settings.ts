import { z } from 'zod';

/** The settings schema; defaults live here. */
export const topDownTruncationSettingsSchema = z.strictObject({
  /**
   * Entries always kept at the end of the history, even when the target cannot be met without dropping them
   * (spec 000 TopDownTruncationStrategy keeps at least 2).
   * @default 2
   */
  minEntriesKept: z.int().min(1, 'Expected an integer ≥ 1').default(2),
});

/** Settings of the top-down truncation strategy, defaults filled in. */
export type TopDownTruncationSettings = z.output<typeof topDownTruncationSettingsSchema>;

/** Settings as a user writes them: every option optional. */
export type TopDownTruncationSettingsInput = z.input<typeof topDownTruncationSettingsSchema>;
