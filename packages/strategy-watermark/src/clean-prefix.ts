import type { HistoryEntry } from '@ctx/core';
import { countSharedPrefix } from '@ctx/strategy-utils';
import type { HistoryView } from './history-view.js';

/**
 * How many leading entries of a history are known to hold nothing a watermark pass removes: `(view, end) → k`,
 * with `k ≤ end`.
 */
export type CleanPrefix = (view: HistoryView, end: number) => number;

/**
 * Remembers the leading entries of the last history that hold nothing to remove, so a watermark pass before every
 * model call does not walk the whole history again to find nothing: once a removal is applied, every entry before
 * the watermark is clean, and only entries appended or rewritten since the last call are read.
 *
 * Only frozen entries (the history model's) are remembered, each by identity: a later history is answered from
 * memory only as far as it holds the same entry objects at the same positions (read from the view when the memory
 * was checked against its previous history, compared otherwise), and an entry that is not frozen is never
 * remembered, since its caller may change it in place.
 *
 * @param isClean - Whether an entry holds nothing to remove, wherever it sits.
 * @returns The memo, for one strategy instance.
 */
export function createCleanPrefix(isClean: (entry: HistoryEntry) => boolean): CleanPrefix {
  // Always a prefix of `checkedAgainst`.
  const clean: HistoryEntry[] = [];
  let checkedAgainst: readonly HistoryEntry[] = [];
  return (view, end) => {
    const { entries } = view;
    clean.length =
      view.previous === checkedAgainst ? Math.min(clean.length, view.unchanged) : countSharedPrefix(entries, clean);
    checkedAgainst = entries;
    let known = Math.min(clean.length, end);
    while (known < end && clean.length === known) {
      const entry = entries[known] as HistoryEntry;
      if (!Object.isFrozen(entry) || !isClean(entry)) break;
      clean.push(entry);
      known++;
    }
    return known;
  };
}
