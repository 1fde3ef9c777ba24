import { z } from 'zod';

/** The settings schema; defaults live here. */
export const nativeSettingsSchema = z.strictObject({
  /**
   * Messages kept at the end, as Roo Code's `N_MESSAGES_TO_KEEP`. Moved earlier when needed so no tool call is
   * split from its result (and the turn still in its tool loop with thinking stays whole).
   * @default 3
   */
  keepLastMessages: z.int().min(1, 'Expected an integer ≥ 1').default(3),
  /** A condensing prompt that replaces the built-in one (spec 004 FR-PR-003); todos and the length limit are appended. */
  customPrompt: z.string().trim().min(1, 'Expected a non-empty prompt').optional(),
  /** The longest summary, in tokens. Without it: half of the history target, at most 8,192. */
  maxSummaryTokens: z.int().min(16, 'Expected an integer ≥ 16').optional(),
  /**
   * The summarizers' context window when a summarizer does not say (`Summarizer.contextWindow`). Requests are kept
   * within 80% of it (spec 002 §6.2).
   * @default 128000
   */
  summarizerWindow: z.int().min(1_000, 'Expected an integer ≥ 1,000').default(128_000),
  /**
   * When every summarizer failed, summarize mechanically (spec 002 §6.3) and warn, instead of returning a
   * `summarizer-failed` no-op.
   * @default true
   */
  fallbackOnFailure: z.boolean().default(true),
});

/** Settings of the native strategy, defaults filled in. */
export type NativeSettings = z.output<typeof nativeSettingsSchema>;

/** Settings as a user writes them: every option optional. */
export type NativeSettingsInput = z.input<typeof nativeSettingsSchema>;
