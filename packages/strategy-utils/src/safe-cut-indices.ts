import type { HistoryEntry } from '@ctx/core';
import { findThinkingToolLoopStart } from './open-tool-loop.js';
import { isBlankEntry } from './tool-loop-bounds.js';

/**
 * Whether cutting the history before `history[index]` (keeping `history[0…index)` on one side and
 * `history[index…]` on the other) keeps every tool call with its response and every assistant turn whole.
 *
 * Safe: `0` and `history.length` (nothing is split), and any index whose entry is a `human` entry or the first
 * `ai` entry of an assistant turn. Unsafe: a `tool` entry (its responses would lose their calls, and no provider
 * accepts a history that starts with tool results) and an `ai` entry that follows another `ai` entry (consecutive
 * `ai` entries are one turn; splitting them would separate a parallel call batch from its answers), and any index
 * inside the turn still in its tool loop when that turn opened with thinking ({@link findThinkingToolLoopStart}:
 * the kept part would start mid-loop without the thinking Anthropic requires). Indices that are not integers in
 * `0…history.length` are unsafe. Blank entries (no blocks, or whitespace text only) are looked through, as provider
 * codecs drop them: a cut before a blank `human` entry between two `ai` entries splits one encoded message.
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
  if (!isPairSafeCutIndex(history, index)) return false;
  if (index === 0 || index === history.length) return true;
  let next = index;
  while (next < history.length && isBlankEntry(history[next] as HistoryEntry)) next++;
  const loopStart = findThinkingToolLoopStart(history);
  return loopStart === undefined || next <= loopStart;
}

/**
 * The pairing part of {@link isSafeCutIndex}: the cut keeps every tool call with its response and every assistant
 * turn whole (blank entries looked through), without the rule about the turn still in its tool loop. For strategies
 * that edit before a cut but keep thinking blocks (the watermark), which may cut inside that turn.
 *
 * @param history - The canonical history.
 * @param index - Where to cut.
 * @returns True when the cut is pair-safe.
 */
export function isPairSafeCutIndex(history: readonly HistoryEntry[], index: number): boolean {
  if (!Number.isInteger(index) || index < 0 || index > history.length) return false;
  if (index === 0 || index === history.length) return true;
  // Blank entries are dropped by provider codecs, so the entries around them meet: judge the cut by the first
  // non-blank entry kept and the last non-blank entry before it.
  let next = index;
  while (next < history.length && isBlankEntry(history[next] as HistoryEntry)) next++;
  if (next === history.length) return true;
  let previous = index - 1;
  while (previous >= 0 && isBlankEntry(history[previous] as HistoryEntry)) previous--;
  const entry = history[next] as HistoryEntry;
  if (entry.speaker === 'tool') return false;
  return !(entry.speaker === 'ai' && history[previous]?.speaker === 'ai');
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
