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
  let searched: readonly HistoryEntry[] = [];
  let latest: ToolCallLocation | undefined;

  const extendsSearched = (history: readonly HistoryEntry[]): boolean => {
    if (history.length < searched.length) return false;
    for (let index = 0; index < searched.length; index++) if (history[index] !== searched[index]) return false;
    return true;
  };

  return (history) => {
    // A frozen array cannot have changed since; any other may have been changed in place, so it is compared.
    if (history === searched && Object.isFrozen(history)) return latest;
    if (extendsSearched(history)) {
      const appended = findLatestCheckpointCall(history.slice(searched.length), { toolNames: names });
      if (appended !== undefined) latest = { ...appended, entryIndex: appended.entryIndex + searched.length };
    } else {
      latest = findLatestCheckpointCall(history, { toolNames: names });
    }
    // What was searched, as it was: a caller's unfrozen array is copied, since the caller may change it later.
    searched = Object.isFrozen(history) ? history : [...history];
    return latest;
  };
}
