import type { HistoryEntry, TokenCounter } from '@ctx/core';

/** Where to cut the history: keep `history[cutIndex…]`. */
export type TruncationCut =
  | { readonly kind: 'meets-target'; readonly cutIndex: number; readonly keptTokens: number }
  | { readonly kind: 'best-effort'; readonly cutIndex: number; readonly keptTokens: number }
  | { readonly kind: 'none'; readonly keptTokens: number };

/**
 * A cut before `history[index]` is safe when it starts a turn: a `human` entry, or an `ai` entry that does not
 * continue the assistant turn before it. Tool entries answer the whole assistant turn right before them, and
 * consecutive `ai` entries are one turn (Claude Code stores one response as several entries), so cutting before a
 * tool entry or between two `ai` entries would separate calls from their responses.
 */
function isSafeCut(history: readonly HistoryEntry[], index: number): boolean {
  const speaker = history[index]?.speaker;
  return speaker === 'human' || (speaker === 'ai' && history[index - 1]?.speaker !== 'ai');
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
    (suffix[index] as number) + (history[index]?.speaker === 'human' ? 0 : noticeTokens);
  for (let index = 1; index <= lastAllowedCut; index++) {
    if (!isSafeCut(history, index)) continue;
    if (kept(index) <= targetTokens) return { kind: 'meets-target', cutIndex: index, keptTokens: kept(index) };
    best = index;
  }
  return best === undefined || kept(best) >= total
    ? { kind: 'none', keptTokens: total }
    : { kind: 'best-effort', cutIndex: best, keptTokens: kept(best) };
}
