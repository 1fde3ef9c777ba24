import type { HistoryEntry, TokenCounter } from '@ctx/core';
import { isBlankEntry, isSafeCutIndex } from '@ctx/strategy-utils';

/** Where to cut the history: keep `history[cutIndex…]`. */
export type TruncationCut =
  | { readonly kind: 'meets-target'; readonly cutIndex: number; readonly keptTokens: number }
  | { readonly kind: 'best-effort'; readonly cutIndex: number; readonly keptTokens: number }
  | { readonly kind: 'none'; readonly keptTokens: number };

/**
 * Whether the part kept from `history[index]` on opens with a user message once encoded: blank entries are dropped by
 * provider codecs, so the first entry that counts is the first non-blank one.
 */
export function keptStartsWithUser(history: readonly HistoryEntry[], index: number): boolean {
  for (let at = index; at < history.length; at++) {
    const entry = history[at] as HistoryEntry;
    if (!isBlankEntry(entry)) return entry.speaker === 'human';
  }
  return false;
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
  /** Tokens added when the kept part does not start with a human entry (the notice that takes its place). */
  noticeTokens = 0,
): TruncationCut {
  const suffix = new Array<number>(history.length + 1);
  suffix[history.length] = 0;
  for (let index = history.length - 1; index >= 0; index--) {
    suffix[index] = (suffix[index + 1] as number) + counter.countEntry(history[index] as HistoryEntry);
  }
  const total = suffix[0] as number;
  const lastAllowedCut = history.length - minEntriesKept;
  let best: number | undefined;
  const kept = (index: number) =>
    (suffix[index] as number) + (keptStartsWithUser(history, index) ? 0 : noticeTokens);
  for (let index = 1; index <= lastAllowedCut; index++) {
    // Pair-safe, and never inside the turn still in its tool loop when it opened with thinking (strategy-utils).
    if (!isSafeCutIndex(history, index)) continue;
    if (kept(index) <= targetTokens) return { kind: 'meets-target', cutIndex: index, keptTokens: kept(index) };
    best = index;
  }
  return best === undefined || kept(best) >= total
    ? { kind: 'none', keptTokens: total }
    : { kind: 'best-effort', cutIndex: best, keptTokens: kept(best) };
}
