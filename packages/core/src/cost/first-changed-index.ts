import type { HistoryEntry } from '../history/history-entry.js';

function sameEntry(left: HistoryEntry, right: HistoryEntry): boolean {
  return left === right || JSON.stringify(left) === JSON.stringify(right);
}

/**
 * The index of the first entry where `after` differs from `before` (the length of the shorter one when one is a
 * prefix of the other): everything before it is sent byte for byte as before, so the provider still has it cached.
 */
export function firstChangedIndex(before: readonly HistoryEntry[], after: readonly HistoryEntry[]): number {
  const shared = Math.min(before.length, after.length);
  for (let index = 0; index < shared; index += 1) {
    if (!sameEntry(before[index]!, after[index]!)) return index;
  }
  return shared;
}
