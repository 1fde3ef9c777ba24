import { z } from 'zod';

/** The settings schema; defaults live here. */
export const slidingWindowSettingsSchema = z
  .strictObject({
    /**
     * Entries the first pass keeps (spec 002: the sliding window's `recentKeep`). Unset: as many of the newest
     * entries as fit the target next to the summary (spec 002 `findSplitIndex`, counting every block type).
     * @default undefined
     */
    recentKeep: z.int().min(1, 'Expected an integer ≥ 1').optional(),
    /**
     * The smallest `recentKeep` the retry loop halves down to. The split still moves to a pair-safe point, so the
     * kept window can be larger; the newest entry is always kept.
     * @default 1
     */
    minRecentKeep: z.int().min(1, 'Expected an integer ≥ 1').default(1),
    /**
     * Passes of the retry loop: each pass that does not fit the target retries with a smaller window. 12 halvings
     * take a window from 4,096 entries down to one.
     * @default 12
     */
    maxAttempts: z.int().min(1, 'Expected an integer ≥ 1').max(64, 'Expected an integer ≤ 64').default(12),
    /**
     * What replaces the dropped entries: `excerpts` is the deterministic summary of spec 002 §6.3 (the first
     * `excerptLength` characters of each dropped message); `summarizer` hands the dropped entries to the
     * application's summarizer (`CompressionContext.summarizer`) and falls back to the excerpts when there is
     * none or it fails. Only `summarizer` ever calls a model, and only then does the strategy declare
     * `requiresLLM: true`.
     * @default 'excerpts'
     */
    summary: z.enum(['excerpts', 'summarizer']).default('excerpts'),
    /**
     * Share of the history's token target the summary may take (the excerpt summary keeps the newest excerpts that
     * fit; the summarizer is asked for at most this many tokens).
     * @default 0.1
     */
    summaryShare: z
      .number()
      .gt(0, 'Expected a fraction > 0')
      .max(0.9, 'Expected a fraction ≤ 0.9')
      .default(0.1),
    /**
     * Characters kept of each dropped message in the excerpt summary (spec 002 §6.3: 200).
     * @default 200
     */
    excerptLength: z.int().min(20, 'Expected an integer ≥ 20').default(200),
    /**
     * Keep the first user message — the first human entry holding text the user typed (not a tool result, harness
     * text or a generated entry), in agent runs the task statement — when the window would drop it: it is placed
     * first, before the summary, and its tokens count against the target. Not pinned, with a `fallback` warning,
     * when it alone takes more than the target minus the summary's share, when nothing else could be dropped, when
     * with it no window fits the target while without it one does, or when none fits either way and it would add
     * more than the summary's share. `false`: spec 002's behaviour (the message survives only as an excerpt in the
     * summary).
     * @default true
     */
    keepFirstUserMessage: z.boolean().default(true),
    /**
     * When the newest entries it must keep are still over the target (a newest tool output larger than the window),
     * cut the largest of their tool results to their beginning and end, with a marker, until the target is met
     * (`cutOversizedToolResults` from `@ctx/core`). Tool calls and results stay paired.
     * @default true
     */
    cutOversizedToolResults: z.boolean().default(true),
  })
  .refine((settings) => settings.recentKeep === undefined || settings.recentKeep >= settings.minRecentKeep, {
    message: 'Expected `recentKeep` to be ≥ `minRecentKeep`',
    path: ['recentKeep'],
  });

/** Settings of the sliding-window strategy, defaults filled in. */
export type SlidingWindowSettings = z.output<typeof slidingWindowSettingsSchema>;

/** Settings as a user writes them: every option optional. */
export type SlidingWindowSettingsInput = z.input<typeof slidingWindowSettingsSchema>;
