import type { HistoryEntry } from '@ctx/core';
import { findLatestCheckpointCall, type ToolCallLocation } from './find-checkpoint-call.js';

/** Finds the newest checkpoint call of a history; see {@link createLatestCheckpointFinder}. */
export type LatestCheckpointFinder = (history: readonly HistoryEntry[]) => ToolCallLocation | undefined;

/**
 * {@link findLatestCheckpointCall} for a conversation that grows turn by turn: the finder remembers the last history
 * it searched and its answer, and when the next history starts with the same entries (the same objects, in the same
 * places) it searches only the entries appended since. Any other history is searched whole; an array the caller
 * changes in place between calls is compared with a copy of what was searched, so that is caught too. The answer is always
 * the one `findLatestCheckpointCall` gives; a continuous strategy asked before every send no longer rereads the whole
 * conversation each time.
 *
 * @param toolNames - Names of the checkpoint tools, matched exactly.
 * @returns The finder; one per strategy instance.
 *
 * @example
 * ```ts
 * const findLatest = createLatestCheckpointFinder(['TodoWrite']);
 * findLatest(history)?.entryIndex; // 212
 * findLatest([...history, nextEntry]); // looks at nextEntry only
 * ```
 */
export function createLatestCheckpointFinder(toolNames: Iterable<string>): LatestCheckpointFinder {
  const names = [...new Set(toolNames)];
  /** The history last searched, as the caller passed it (for the same-array check). */
  let searchedArray: readonly HistoryEntry[] | undefined;
  /** Its entries, in an array of our own. */
  let searched: readonly HistoryEntry[] = [];
  let latest: ToolCallLocation | undefined;

  const extendsSearched = (entries: readonly HistoryEntry[]): boolean => {
    if (entries.length < searched.length) return false;
    for (let index = 0; index < searched.length; index++) if (entries[index] !== searched[index]) return false;
    return true;
  };

  return (history) => {
    // A frozen array cannot have changed since; any other may have been changed in place, so it is compared.
    if (history === searchedArray && Object.isFrozen(history)) return latest;
    // Compared through a copy: reading a frozen array (the history model's snapshots) entry by entry takes V8's slow
    // path (about 10 ns an entry on Node 20–24), copying it does not. The copy is also what was searched, as it was.
    const entries = [...history];
    if (extendsSearched(entries)) {
      const appended = findLatestCheckpointCall(entries.slice(searched.length), { toolNames: names });
      if (appended !== undefined) latest = { ...appended, entryIndex: appended.entryIndex + searched.length };
    } else {
      latest = findLatestCheckpointCall(entries, { toolNames: names });
    }
    searchedArray = history;
    searched = entries;
    return latest;
  };
}
