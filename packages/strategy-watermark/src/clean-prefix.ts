import type { HistoryEntry } from '@ctx/core';
import { countSharedPrefix } from '@ctx/strategy-utils';

/**
 * How many leading entries of a history are known to hold nothing a watermark pass removes: `(history, end) → k`,
 * with `k ≤ end`.
 */
export type CleanPrefix = (history: readonly HistoryEntry[], end: number) => number;

/**
 * Remembers the leading entries of the last history that hold nothing to remove, so a watermark pass before every
 * model call does not walk the whole history again to find nothing: once a removal is applied, every entry before
 * the watermark is clean, and only entries appended or rewritten since the last call are read.
 *
 * Only frozen entries (the history model's) are remembered, each by identity: a later history is answered from
 * memory only as far as it holds the same entry objects at the same positions, and an entry that is not frozen is
 * never remembered, since its caller may change it in place.
 *
 * @param isClean - Whether an entry holds nothing to remove, wherever it sits.
 * @returns The memo, for one strategy instance.
 */
export function createCleanPrefix(isClean: (entry: HistoryEntry) => boolean): CleanPrefix {
  const clean: HistoryEntry[] = [];
  return (history, end) => {
    let known = countSharedPrefix(history, clean, end);
    if (known < Math.min(clean.length, end)) clean.length = known;
    while (known < end && clean.length === known) {
      const entry = history[known] as HistoryEntry;
      if (!Object.isFrozen(entry) || !isClean(entry)) break;
      clean.push(entry);
      known++;
    }
    return known;
  };
}
