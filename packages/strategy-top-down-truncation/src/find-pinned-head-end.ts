import type { HistoryEntry } from '@ctx/core';
import { findFirstUserMessage, isPairSafeCutIndex } from '@ctx/strategy-utils';

/**
 * Where the pinned head ends: the head is `history[0…end)`, the entries from the start through the first user
 * message (`findFirstUserMessage`), extended past any entry that would be cut from its tool call (so the head holds
 * whole pairs and whole assistant turns). 0 when there is no first user message: nothing is pinned.
 *
 * The entries before the first user message stay with it: in Claude Code they are the slash command and its
 * expansion, or the harness's context records, which the task refers to.
 *
 * @param history - The canonical history.
 * @returns The index just past the head.
 */
export function findPinnedHeadEnd(history: readonly HistoryEntry[]): number {
  const firstUser = findFirstUserMessage(history);
  if (firstUser === undefined) return 0;
  let end = firstUser + 1;
  while (end < history.length && !isPairSafeCutIndex(history, end)) end++;
  return end;
}
