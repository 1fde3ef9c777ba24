import type { HistoryEntry } from '@ctx/core';
import { countSharedPrefix } from '@ctx/strategy-utils';
import { findLatestCheckpointCall, type ToolCallLocation } from './find-checkpoint-call.js';
import type { HistoryView } from './history-view.js';

/** Finds the newest checkpoint call of a history; see {@link createLatestCheckpointFinder}. */
export type LatestCheckpointFinder = (view: HistoryView) => ToolCallLocation | undefined;

/**
 * {@link findLatestCheckpointCall} for a conversation that grows turn by turn: the finder remembers the last history
 * it searched and its answer, and when the next history starts with the same entries (the same objects, in the same
 * places) it searches only the entries appended since. Any other history is searched whole. Whether the history
 * extends the one searched is read from the view ({@link HistoryView.unchanged}) when that one is the view's
 * previous, and compared otherwise. The answer is always the one `findLatestCheckpointCall` gives; a continuous
 * strategy asked before every send no longer rereads the whole conversation each time.
 *
 * @param toolNames - Names of the checkpoint tools, matched exactly.
 * @returns The finder; one per strategy instance.
 *
 * @example
 * ```ts
 * const views = createHistoryViews();
 * const findLatest = createLatestCheckpointFinder(['TodoWrite']);
 * findLatest(views(history))?.entryIndex; // 212
 * findLatest(views([...history, nextEntry])); // looks at nextEntry only
 * ```
 */
export function createLatestCheckpointFinder(toolNames: Iterable<string>): LatestCheckpointFinder {
  const names = [...new Set(toolNames)];
  let searched: readonly HistoryEntry[] = [];
  let latest: ToolCallLocation | undefined;

  const extendsSearched = ({ entries, previous, unchanged }: HistoryView): boolean => {
    if (previous === searched) return unchanged === searched.length;
    return entries.length >= searched.length && countSharedPrefix(entries, searched) === searched.length;
  };

  return (view) => {
    const { entries } = view;
    if (extendsSearched(view)) {
      const appended = findLatestCheckpointCall(entries.slice(searched.length), { toolNames: names });
      if (appended !== undefined) latest = { ...appended, entryIndex: appended.entryIndex + searched.length };
    } else {
      latest = findLatestCheckpointCall(entries, { toolNames: names });
    }
    searched = entries;
    return latest;
  };
}
