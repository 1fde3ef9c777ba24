import type { HistoryEntry } from './history-entry.js';

/** The snapshots of one history, in the order they were made. */
interface Lineage {
  /** `shared[v]`: leading entries snapshot `v` has in common with snapshot `v − 1` (the same objects, in place). */
  readonly shared: number[];
}

/** Where a snapshot sits in its history's lineage. */
interface Stamp {
  readonly lineage: Lineage;
  readonly version: number;
}

const stamps = new WeakMap<readonly HistoryEntry[], Stamp>();
/** Snapshots further apart than this are compared entry by entry instead (their caller is not a turn-by-turn loop). */
const maximumVersionsApart = 1024;

/** Records the snapshots a history hands out; see {@link createSnapshotLineage}. */
export interface SnapshotLineage {
  /**
   * Records a new snapshot of the history.
   *
   * @param snapshot - The frozen array handed out.
   * @param sharedWithPrevious - Leading entries it has in common with the previous snapshot recorded (0 for the
   *   first).
   */
  record(snapshot: readonly HistoryEntry[], sharedWithPrevious: number): void;
}

/**
 * Creates the lineage of one history's snapshots: `HistoryService` records each frozen array it hands out and how
 * much of it the previous one already held, so that {@link vouchedSharedPrefix} can tell a strategy what changed
 * between two of them without reading either. Memory: one number per snapshot.
 *
 * @returns The lineage, for one history.
 */
export function createSnapshotLineage(): SnapshotLineage {
  const lineage: Lineage = { shared: [] };
  return {
    record(snapshot, sharedWithPrevious) {
      stamps.set(snapshot, { lineage, version: lineage.shared.length });
      lineage.shared.push(sharedWithPrevious);
    },
  };
}

/**
 * How many leading entries two snapshots of one `HistoryService` are known to share — the same entry objects at the
 * same positions — read from what the service recorded as it changed, in time proportional to the snapshots made
 * in between (one or two in an agent loop), not to the history's length.
 *
 * A lower bound: an entry replaced and later put back is counted as changed; compare on from there for the exact
 * figure (as `countSharedPrefix` of `@ctx/strategy-utils` does). Undefined when the service cannot vouch: either
 * array is not one of its snapshots (a copy, an array built by hand), they come from different histories, `current`
 * is older than `previous`, or more than 1,024 snapshots lie between them.
 *
 * @param previous - A snapshot seen before (`getRawHistory()`'s array).
 * @param current - A later snapshot of the same history.
 * @returns The count, or undefined.
 * @example
 * ```ts
 * const before = history.getRawHistory();
 * history.add(entry);
 * vouchedSharedPrefix(before, history.getRawHistory()); // before.length
 * ```
 */
export function vouchedSharedPrefix(previous: readonly HistoryEntry[], current: readonly HistoryEntry[]): number | undefined {
  if (previous === current) return current.length;
  const from = stamps.get(previous);
  const to = stamps.get(current);
  if (from === undefined || to === undefined || from.lineage !== to.lineage) return undefined;
  if (to.version < from.version || to.version - from.version > maximumVersionsApart) return undefined;
  let shared = Math.min(previous.length, current.length);
  for (let version = from.version + 1; version <= to.version; version++) {
    shared = Math.min(shared, to.lineage.shared[version] as number);
  }
  return shared;
}
