import type { CompareResponse, EntryChange, EntryView, InsertedEntry } from '../../src/serve/serve-api.js';

/** One row of the side-by-side history: an original entry and what became of it, or an entry a strategy added. */
export type HistoryRow =
  | { readonly kind: 'original'; readonly index: number; readonly entry: EntryView; readonly change: EntryChange | undefined }
  | { readonly kind: 'inserted'; readonly inserted: InsertedEntry };

/** Which rows to list. */
export type HistoryFilter = 'all' | 'changed' | 'replaced' | 'removed';

/**
 * The rows of the history for one strategy, in order: every original entry with its change (if any), and each added
 * entry after the original entry it follows.
 */
export function buildHistoryRows(comparison: CompareResponse, strategyIndex: number, filter: HistoryFilter): HistoryRow[] {
  const detail = comparison.details[strategyIndex];
  const changes = new Map((detail?.changes ?? []).map((change) => [change.index, change]));
  const insertedAfter = new Map<number, InsertedEntry[]>();
  for (const inserted of detail?.inserted ?? []) insertedAfter.set(inserted.after, [...(insertedAfter.get(inserted.after) ?? []), inserted]);
  const keep = (row: HistoryRow) => {
    if (filter === 'all') return true;
    if (row.kind === 'inserted') return filter === 'changed';
    if (row.change === undefined) return false;
    return filter === 'changed' || row.change.state === filter;
  };
  const rows: HistoryRow[] = [];
  const push = (row: HistoryRow) => {
    if (keep(row)) rows.push(row);
  };
  for (const inserted of insertedAfter.get(-1) ?? []) push({ kind: 'inserted', inserted });
  comparison.transcript.entries.forEach((entry, index) => {
    push({ kind: 'original', index, entry, change: changes.get(index) });
    for (const inserted of insertedAfter.get(index) ?? []) push({ kind: 'inserted', inserted });
  });
  return rows;
}
