import type { HistoryEntry } from '@ctx/core';
import { countSharedPrefix } from '@ctx/strategy-utils';

/**
 * One call's history as a watermark strategy reads it: its entries, and how much of it the previous call already
 * saw. Everything a pass remembers between calls (the newest checkpoint, the
 * entries with nothing to remove) is checked against this one comparison instead of comparing the history again.
 */
export interface HistoryView {
  /**
   * The entries: the history itself when it is frozen (it cannot change: a history service's snapshot, whose changes
   * since the previous one are on record), otherwise a copy (the caller may change its array later).
   */
  readonly entries: readonly HistoryEntry[];
  /** The previous view's entries (an empty array before the first call). */
  readonly previous: readonly HistoryEntry[];
  /** How many leading entries are the same objects, in the same places, as in {@link HistoryView.previous}. */
  readonly unchanged: number;
}

/** Makes the {@link HistoryView} of each call; see {@link createHistoryViews}. */
export type HistoryViews = (history: readonly HistoryEntry[]) => HistoryView;

/**
 * Creates the views of one strategy instance's calls: each compares the history once with the previous call's,
 * however many parts of the pass use what they remember — two snapshots of one history service without reading
 * them (see `countSharedPrefix`), other arrays entry by entry.
 *
 * @returns A function from the history of a call to its view; call it once per call.
 * @example
 * ```ts
 * const views = createHistoryViews();
 * views(history).unchanged; // 0
 * views([...history, next]).unchanged; // history.length
 * ```
 */
export function createHistoryViews(): HistoryViews {
  let previous: readonly HistoryEntry[] = [];
  return (history) => {
    const entries = Object.isFrozen(history) ? history : [...history];
    const view = { entries, previous, unchanged: countSharedPrefix(entries, previous) };
    previous = entries;
    return view;
  };
}
