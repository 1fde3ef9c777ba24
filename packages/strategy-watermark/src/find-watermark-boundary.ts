import type { HistoryEntry } from '@ctx/core';
import { isPairSafeCutIndex } from '@ctx/strategy-utils';
import { findToolCall, type ToolCallLocation } from './find-checkpoint-call.js';

/** Where a watermark cuts a history. */
export interface WatermarkBoundary {
  /** The watermark's tool call. */
  readonly call: ToolCallLocation;
  /**
   * Index of the first entry of the assistant turn holding the watermark call. Tool blocks of the entries before it
   * are removed; it and everything after it stay unchanged.
   */
  readonly boundaryIndex: number;
}

/**
 * The first entry of the assistant turn that holds the entry at `entryIndex`. Spec 003 keeps the whole assistant
 * message that holds the watermark; in the canonical history one message may be several consecutive `ai` entries
 * (Claude Code stores each block as its own record), and cutting between them would strip calls whose results are
 * kept, so the boundary is the turn's first entry — the nearest pair-safe cut (`isPairSafeCutIndex`: the watermark keeps thinking, so it may cut inside
 * the turn still in its tool loop).
 *
 * @param history - The canonical history.
 * @param entryIndex - An entry of the turn.
 * @returns The index where the turn starts.
 */
export function findTurnStart(history: readonly HistoryEntry[], entryIndex: number): number {
  let index = entryIndex;
  while (index > 0 && !isPairSafeCutIndex(history, index)) index--;
  return index;
}

/**
 * Locates a watermark (spec 003 §5, the search at the top of `_compress_at_watermark`): the first call with the id
 * `callId`, and where the kept part of the history starts. Linear.
 *
 * @param history - The canonical history.
 * @param callId - The watermark: a tool call id.
 * @returns The boundary, or undefined when no call has that id (spec 003 edge case 1: the caller then removes
 *   nothing and warns).
 * @example
 * ```ts
 * findWatermarkBoundary(history, 'toolu_abc123xyz'); // { call: { entryIndex: 3, … }, boundaryIndex: 2 }
 * ```
 */
export function findWatermarkBoundary(history: readonly HistoryEntry[], callId: string): WatermarkBoundary | undefined {
  const call = findToolCall(history, callId);
  return call === undefined ? undefined : { call, boundaryIndex: findTurnStart(history, call.entryIndex) };
}
