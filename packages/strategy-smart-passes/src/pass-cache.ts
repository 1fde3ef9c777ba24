import type { HistoryEntry } from '@ctx/core';
import type { ContentType } from './content-operations.js';

/** One content type of an entry that a pass shortened, and how. */
export interface PieceDone {
  readonly type: ContentType;
  readonly operation: 'suppress' | 'truncate' | 'summarize';
}

/** What an individual pass did to one entry, and everything besides the entry the outcome depended on. */
export interface KeptPassOutcome {
  /**
   * Compared by identity on the next call: the token counter the savings were counted with, the override of the
   * entry's position, whether the pass touches each tool call and response, and the call each error check used.
   */
  readonly dependencies: readonly unknown[];
  /**
   * The entry's replacement, or undefined when the pass left it as it was: as built the first time, validated and
   * frozen from its second use on.
   */
  readonly next: HistoryEntry | undefined;
  /** What was shortened in `next`. */
  readonly done: readonly PieceDone[];
}

/**
 * What the individual passes of one strategy did to validated (immutable) entries, by entry, one slot per pass (by
 * its index in the settings): in an agent loop each call sees the previous history plus a few entries, so the next
 * call reuses these outcomes — and their validated replacement objects, whose token counts the counter has cached —
 * instead of processing, rebuilding and counting the entries again. One `WeakMap` for all passes (an insertion costs
 * more than a lookup); entries that leave the history are collected.
 */
export type PassCache = WeakMap<HistoryEntry, (KeptPassOutcome | undefined)[]>;

/**
 * True when both dependency lists hold the same values (by identity) in the same order.
 *
 * @param kept - The dependencies an outcome was kept with.
 * @param current - The dependencies now.
 * @returns Whether the kept outcome still holds.
 */
export function sameDependencies(kept: readonly unknown[], current: readonly unknown[]): boolean {
  if (kept.length !== current.length) return false;
  for (let index = 0; index < kept.length; index++) if (kept[index] !== current[index]) return false;
  return true;
}
