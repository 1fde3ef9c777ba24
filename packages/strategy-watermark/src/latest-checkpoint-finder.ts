import type { HistoryEntry } from '@ctx/core';
import { countSharedPrefix } from '@ctx/strategy-utils';
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

  const extendsSearched = (history: readonly HistoryEntry[]): boolean =>
    history.length >= searched.length && countSharedPrefix(history, searched) === searched.length;

  return (history) => {
    // What is searched, as it is now, in a plain array of our own: the caller may change its array later, and a frozen
    // one is slow to compare against (see `countSharedPrefix`).
    const entries = [...history];
    if (extendsSearched(entries)) {
      const appended = findLatestCheckpointCall(entries.slice(searched.length), { toolNames: names });
      if (appended !== undefined) latest = { ...appended, entryIndex: appended.entryIndex + searched.length };
    } else {
      latest = findLatestCheckpointCall(entries, { toolNames: names });
    }
    searched = entries;
    return latest;
  };
}
