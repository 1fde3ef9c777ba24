import type { HistoryEntry } from '@ctx/core';

/**
 * Whether cutting the history before `history[index]` (keeping `history[0…index)` on one side and
 * `history[index…]` on the other) keeps every tool call with its response and every assistant turn whole.
 *
 * Safe: `0` and `history.length` (nothing is split), and any index whose entry is a `human` entry or the first
 * `ai` entry of an assistant turn. Unsafe: a `tool` entry (its responses would lose their calls, and no provider
 * accepts a history that starts with tool results) and an `ai` entry that follows another `ai` entry (consecutive
 * `ai` entries are one turn; splitting them would separate a parallel call batch from its answers). Indices that
 * are not integers in `0…history.length` are unsafe.
 *
 * @param history - The canonical history.
 * @param index - Where to cut.
 * @returns True when the cut is pair-safe.
 * @example
 * ```ts
 * isSafeCutIndex([human, aiWithCall, toolResult, aiAnswer], 2); // false: would orphan the result
 * isSafeCutIndex([human, aiWithCall, toolResult, aiAnswer], 3); // true
 * ```
 */
export function isSafeCutIndex(history: readonly HistoryEntry[], index: number): boolean {
  if (!Number.isInteger(index) || index < 0 || index > history.length) return false;
  if (index === 0 || index === history.length) return true;
  const entry = history[index] as HistoryEntry;
  if (entry.speaker === 'tool') return false;
  return !(entry.speaker === 'ai' && history[index - 1]?.speaker === 'ai');
}

/**
 * Every index where {@link isSafeCutIndex} holds, ascending, from `0` to `history.length` inclusive. Linear.
 *
 * @param history - The canonical history.
 * @returns The safe cut indices.
 * @example
 * ```ts
 * findSafeCutIndices([human, aiWithCall, toolResult, aiAnswer]); // [0, 1, 3, 4]
 * ```
 */
export function findSafeCutIndices(history: readonly HistoryEntry[]): number[] {
  const indices: number[] = [];
  for (let index = 0; index <= history.length; index++) if (isSafeCutIndex(history, index)) indices.push(index);
  return indices;
}
