import type { HistoryEntry, TokenCounter } from '@ctx/core';

/** Where to cut the history: keep `history[cutIndex…]`. */
export type TruncationCut =
  | { readonly kind: 'meets-target'; readonly cutIndex: number; readonly keptTokens: number }
  | { readonly kind: 'best-effort'; readonly cutIndex: number; readonly keptTokens: number }
  | { readonly kind: 'none'; readonly keptTokens: number };

/**
 * A cut before `history[index]` is safe when that entry is not a tool entry: tool entries answer the assistant
 * turn right before them, so cutting there would orphan their responses. Cutting before an `ai` or `human` entry
 * keeps every remaining response next to its call.
 */
function isSafeCut(history: readonly HistoryEntry[], index: number): boolean {
  return history[index]?.speaker !== 'tool';
}

/**
 * Finds the smallest safe cut whose kept suffix fits `targetTokens`, keeping at least `minEntriesKept` entries.
 * When no cut meets the target, returns the largest safe cut allowed (drop as much as the rules permit).
 *
 * Linear: one pass builds suffix sums of per-entry tokens (each entry counted once, through the counter's cache),
 * one pass scans the cut positions. The known implementation re-estimated every remaining prefix: O(n²).
 */
export function findTruncationCut(
  history: readonly HistoryEntry[],
  counter: TokenCounter,
  targetTokens: number,
  minEntriesKept: number,
): TruncationCut {
  const suffix = new Array<number>(history.length + 1);
  suffix[history.length] = 0;
  for (let index = history.length - 1; index >= 0; index--) {
    suffix[index] = (suffix[index + 1] as number) + counter.countEntry(history[index] as HistoryEntry);
  }
  const total = suffix[0] as number;
  const lastAllowedCut = history.length - minEntriesKept;
  let best: number | undefined;
  for (let index = 1; index <= lastAllowedCut; index++) {
    if (!isSafeCut(history, index)) continue;
    if ((suffix[index] as number) <= targetTokens) {
      return { kind: 'meets-target', cutIndex: index, keptTokens: suffix[index] as number };
    }
    best = index;
  }
  return best === undefined
    ? { kind: 'none', keptTokens: total }
    : { kind: 'best-effort', cutIndex: best, keptTokens: suffix[best] as number };
}
