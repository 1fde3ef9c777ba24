import type { HistoryEntry, TokenCounter } from '@ctx/core';

/**
 * Where the recent window would start by tokens alone (spec 002 `findSplitIndex`, before its pair-safe
 * adjustment): walks back from the newest entry, adding each entry's tokens, and returns the index after the entry
 * that pushes the sum over `recentBudget`. Every block type counts (text, thinking, tool-call names and
 * parameters, tool results, media: spec 002 Proposal 4, through `TokenCounter.countEntry`), so tool-heavy
 * conversations get a realistic window.
 *
 * As in the spec, the window keeps at least the newest two entries when they alone exceed the budget, and a
 * history that fits entirely is split in the middle (the strategy never asks for that: it returns
 * `already-under-target` first).
 *
 * Linear; each entry is counted once through the counter's cache.
 *
 * @param history - The history.
 * @param counter - The context's token counter.
 * @param recentBudget - Tokens the recent window may take.
 * @returns The candidate split index, to be made pair-safe with `findSafeSplitIndex`.
 * @example
 * ```ts
 * const candidate = findRecentWindowStart(history, context.tokenCounter, 40_000);
 * const split = findSafeSplitIndex(history, candidate);
 * ```
 */
export function findRecentWindowStart(
  history: readonly HistoryEntry[],
  counter: TokenCounter,
  recentBudget: number,
): number {
  let tokens = 0;
  for (let index = history.length - 1; index >= 0; index--) {
    tokens += counter.countEntry(history[index] as HistoryEntry);
    if (tokens > recentBudget) return index < history.length - 2 ? index + 1 : history.length - 2;
  }
  return history.length > 2 ? Math.floor(history.length / 2) : 1;
}
