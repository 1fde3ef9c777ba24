import { z } from 'zod';

/** The settings schema; defaults live here. */
export const middleOutSettingsSchema = z.strictObject({
  /**
   * Share of the history target the kept head may take. The head always runs through the first user message, even
   * when that alone is larger; then whole turns while they fit. It is kept byte-identical, so a provider's prompt
   * cache over it survives the compression.
   * @default 0.2
   */
  headShare: z.number().min(0, 'Expected a share in [0, 0.9]').max(0.9, 'Expected a share in [0, 0.9]').default(0.2),
  /**
   * Share of the history target the kept tail may take: the newest whole turns that fit (at least the last turn,
   * and always the assistant turn still in its tool loop with thinking).
   * @default 0.3
   */
  tailShare: z.number().min(0, 'Expected a share in [0, 0.9]').max(0.9, 'Expected a share in [0, 0.9]').default(0.3),
  /** The longest summary, in tokens. Without it: a fifth of the history target, at most 8,192. */
  maxSummaryTokens: z.int().min(16, 'Expected an integer ≥ 16').optional(),
  /**
   * The summarizer's context window when the summarizer does not say (`Summarizer.contextWindow`). Requests are
   * kept within 80% of it (spec 002 §6.2).
   * @default 128000
   */
  summarizerWindow: z.int().min(1_000, 'Expected an integer ≥ 1,000').default(128_000),
  /**
   * When the summarizer fails, summarize the middle mechanically (spec 002 §6.3) and warn, instead of returning a
   * `summarizer-failed` no-op.
   * @default true
   */
  fallbackOnFailure: z.boolean().default(true),
  /** A condensing prompt that replaces the built-in one (spec 004 FR-PR-003); todos and the length limit are appended. */
  customPrompt: z.string().trim().min(1, 'Expected a non-empty prompt').optional(),
});

/** Settings of the middle-out strategy, defaults filled in. */
export type MiddleOutSettings = z.output<typeof middleOutSettingsSchema>;

/** Settings as a user writes them: every option optional. */
export type MiddleOutSettingsInput = z.input<typeof middleOutSettingsSchema>;
