import type { HistoryEntry, TokenCounter } from '@ctx/core';
import { isBlankEntry, isSafeCutIndex } from '@ctx/strategy-utils';

/** Where to cut the history: keep `history[cutIndex…]` (after the pinned head, when there is one). */
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

/** What {@link findTruncationCut} keeps and may spend. */
export interface TruncationCutOptions {
  /** The token target for everything kept: the head, the notice and the kept suffix. */
  readonly targetTokens: number;
  /** Entries always kept at the end. */
  readonly minEntriesKept: number;
  /**
   * Tokens of the notice that takes the dropped entries' place: added when the kept suffix does not start with a human
   * entry, and always when a head is pinned (the notice then sits between the head and the suffix).
   * @default 0
   */
  readonly noticeTokens?: number;
  /**
   * The pinned head is `history[0…headEnd)`: it is always kept, and only entries after it are dropped.
   * @default 0
   */
  readonly headEnd?: number;
}

/**
 * Finds the smallest safe cut whose kept part — the pinned head, the notice when needed, and the suffix from the
 * cut — fits `targetTokens`, keeping at least `minEntriesKept` entries at the end. When no cut meets the target,
 * returns the largest safe cut allowed (drop as much as the rules permit).
 *
 * Linear: one pass builds suffix sums of per-entry tokens (each entry counted once, through the counter's cache),
 * one pass scans the cut positions. The known implementation re-estimated every remaining prefix: O(n²).
 */
export function findTruncationCut(
  history: readonly HistoryEntry[],
  counter: TokenCounter,
  options: TruncationCutOptions,
): TruncationCut {
  const { targetTokens, minEntriesKept, noticeTokens = 0, headEnd = 0 } = options;
  const suffix = new Array<number>(history.length + 1);
  suffix[history.length] = 0;
  for (let index = history.length - 1; index >= 0; index--) {
    suffix[index] = (suffix[index + 1] as number) + counter.countEntry(history[index] as HistoryEntry);
  }
  const total = suffix[0] as number;
  const headTokens = total - (suffix[headEnd] as number);
  const lastAllowedCut = history.length - minEntriesKept;
  let best: number | undefined;
  const needsNotice = (index: number) => headEnd > 0 || !keptStartsWithUser(history, index);
  const kept = (index: number) => headTokens + (suffix[index] as number) + (needsNotice(index) ? noticeTokens : 0);
  // A cut at the head's end drops nothing; the first cut that drops an entry is one past it.
  for (let index = headEnd + 1; index <= lastAllowedCut; index++) {
    // Pair-safe, and never inside the turn still in its tool loop when it opened with thinking (strategy-utils).
    if (!isSafeCutIndex(history, index)) continue;
    if (kept(index) <= targetTokens) return { kind: 'meets-target', cutIndex: index, keptTokens: kept(index) };
    best = index;
  }
  return best === undefined || kept(best) >= total
    ? { kind: 'none', keptTokens: total }
    : { kind: 'best-effort', cutIndex: best, keptTokens: kept(best) };
}
