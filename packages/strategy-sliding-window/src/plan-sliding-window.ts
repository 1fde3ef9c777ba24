import type { HistoryEntry, TokenCounter } from '@ctx/core';
import { findRecentWindowStart } from './find-recent-window-start.js';
import { findSafeSplitIndex, type SafeSplit } from './find-safe-split-index.js';

/** The summary a split would need: its tokens, and the entry when it was built while planning. */
export interface PlannedSummary {
  readonly tokens: number;
  readonly entry?: HistoryEntry;
  /** Dropped messages the built summary left out. */
  readonly omitted?: number;
}

/** One pass of the retry loop. */
export interface SlidingWindowAttempt {
  /** The window asked for: entries to keep before the pair-safe adjustment. */
  readonly recentKeep: number;
  readonly split: SafeSplit;
  /** The split drops the pinned entry's place, so the entry is kept before the summary. */
  readonly pinned: boolean;
  /** Tokens of `history[split.index…]`, plus the pinned entry's when `pinned`. */
  readonly keptTokens: number;
  readonly summary: PlannedSummary;
  /** `keptTokens + summary.tokens`: the new history's size. */
  readonly totalTokens: number;
}

/** The outcome of the retry loop. */
export interface SlidingWindowPlan {
  /** Every pass, in order. */
  readonly attempts: readonly SlidingWindowAttempt[];
  /** The first pass that fits the target, else the smallest one; undefined when no pair-safe split exists. */
  readonly chosen: SlidingWindowAttempt | undefined;
  readonly fits: boolean;
}

/** Options of {@link planSlidingWindow}. */
export interface PlanSlidingWindowOptions {
  readonly counter: TokenCounter;
  /** Tokens the new history (summary included) may take. */
  readonly targetTokens: number;
  /** The first window; unset: as many entries as fit `targetTokens − summaryReserve` by tokens. */
  readonly recentKeep?: number;
  readonly minRecentKeep: number;
  readonly maxAttempts: number;
  /** Tokens set aside for the summary when sizing the first window. */
  readonly summaryReserve: number;
  /** The summary a split needs (built, or estimated when a model will write it later). */
  readonly summaryFor: (splitIndex: number) => PlannedSummary;
  /**
   * An entry kept whatever the split (the first user message): when a split drops its place, its tokens count
   * toward the total, and a split must drop at least one other entry.
   */
  readonly pinned?: { readonly index: number; readonly tokens: number };
}

/**
 * The sliding window's retry loop (spec 002 Proposal 2: "the sliding window strategy still retries with a
 * progressively smaller `recentKeep`"). The first window holds as many of the newest entries as fit the target
 * beside the summary (`findRecentWindowStart`), or `recentKeep` entries when set. Each pass makes the split
 * pair-safe (`findSafeSplitIndex`), sizes the summary of what it drops and checks the whole against the target.
 * A pass that does not fit retries:
 *
 * - when the backward walk went back to a text boundary before the window, with the same window at its pair seam
 *   (the text boundary was the nearest one, so any other would keep even more);
 * - otherwise with half the window, down to `minRecentKeep`.
 *
 * Every retry must split later than the one before, so the loop always shrinks the window and ends after at most
 * `maxAttempts` passes, when the window cannot shrink, or when no later pair-safe split exists.
 *
 * With a pinned entry, a split past it keeps the entry (its tokens count), the first window is sized without its
 * tokens, and the floor rises so that something besides the pinned entry is always compacted.
 *
 * Linear per pass: one suffix sum of cached entry counts, one walk, one summary.
 *
 * @param history - The history to compress.
 * @param options - Budget, window bounds and the summary sizing.
 * @returns Every attempt, the chosen one and whether it fits.
 * @example
 * ```ts
 * const plan = planSlidingWindow(history, { counter, targetTokens: 50_000, minRecentKeep: 1, maxAttempts: 12,
 *   summaryReserve: 5_000, summaryFor: (split) => ({ tokens: 5_000 }) });
 * ```
 */
export function planSlidingWindow(history: readonly HistoryEntry[], options: PlanSlidingWindowOptions): SlidingWindowPlan {
  const { counter, targetTokens } = options;
  const suffix = new Array<number>(history.length + 1);
  suffix[history.length] = 0;
  for (let index = history.length - 1; index >= 0; index--) {
    suffix[index] = (suffix[index + 1] as number) + counter.countEntry(history[index] as HistoryEntry);
  }

  const { pinned } = options;
  const attempts: SlidingWindowAttempt[] = [];
  const firstWindow = (): number => {
    const windowBudget = Math.max(0, targetTokens - options.summaryReserve);
    const start = findRecentWindowStart(history, counter, windowBudget);
    // A window that does not reach the pinned entry shares the target with it.
    if (pinned === undefined || start <= pinned.index) return history.length - start;
    return history.length - findRecentWindowStart(history, counter, Math.max(0, windowBudget - pinned.tokens));
  };
  let recentKeep = Math.max(options.recentKeep ?? firstWindow(), options.minRecentKeep);
  // Dropping only the pinned entry's place would compact nothing: the floor is then the entry after it.
  const floor = pinned?.index === 0 ? 2 : 1;
  let after = floor - 1;
  while (attempts.length < options.maxAttempts) {
    const candidate = history.length - recentKeep;
    const found = findSafeSplitIndex(history, candidate, { after });
    if (found === undefined) break;
    const split = candidate < floor && !found.floorHit ? { ...found, floorHit: true } : found;
    const isPinned = pinned !== undefined && split.index > pinned.index;
    const keptTokens = (suffix[split.index] as number) + (isPinned ? pinned.tokens : 0);
    const summary = options.summaryFor(split.index);
    const attempt = { recentKeep, split, pinned: isPinned, keptTokens, summary, totalTokens: keptTokens + summary.tokens };
    attempts.push(attempt);
    if (attempt.totalTokens <= targetTokens) return { attempts, chosen: attempt, fits: true };
    after = split.index;
    if (split.index < candidate) continue;
    const smaller = Math.max(options.minRecentKeep, Math.floor(recentKeep / 2));
    if (smaller === recentKeep) break;
    recentKeep = smaller;
  }
  let chosen: SlidingWindowAttempt | undefined;
  for (const attempt of attempts) if (chosen === undefined || attempt.totalTokens < chosen.totalTokens) chosen = attempt;
  return { attempts, chosen, fits: false };
}
