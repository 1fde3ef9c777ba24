import { z } from 'zod';

/** The settings schema; defaults live here. */
export const oneShotSettingsSchema = z.strictObject({
  /**
   * The longest summary, in tokens (sent to the summarizer as `maxOutputTokens`). Without it: half of the history
   * target, at most 8,192 (spec 002: a summary of about half the buffer).
   */
  maxSummaryTokens: z.int().min(16, 'Expected an integer ≥ 16').optional(),
  /**
   * The summarizer's context window when the summarizer does not say (`Summarizer.contextWindow`). Requests are
   * kept within 80% of it (spec 002 §6.2).
   * @default 128000
   */
  summarizerWindow: z.int().min(1_000, 'Expected an integer ≥ 1,000').default(128_000),
  /**
   * When the summarizer fails (timeout, HTTP errors after its retries, an empty or inflated summary), replace the
   * conversation with a mechanical summary (spec 002 §6.3) and warn, instead of returning a `summarizer-failed`
   * no-op.
   * @default true
   */
  fallbackOnFailure: z.boolean().default(true),
  /** A condensing prompt that replaces the built-in one (spec 004 FR-PR-003); todos and the length limit are appended. */
  customPrompt: z.string().trim().min(1, 'Expected a non-empty prompt').optional(),
});

/** Settings of the one-shot strategy, defaults filled in. */
export type OneShotSettings = z.output<typeof oneShotSettingsSchema>;

/** Settings as a user writes them: every option optional. */
export type OneShotSettingsInput = z.input<typeof oneShotSettingsSchema>;
