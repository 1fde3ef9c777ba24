import type { HistoryEntry } from './history-entry.js';
import { findToolPairingProblems } from './tool-pairing.js';

/**
 * Where a turn's pairing is decided from: the history's first entry, a `human` entry, or an `ai` entry that follows a
 * non-`ai` one. Pairing problems of the entries from one such start up to the next depend on those entries alone.
 */
function startsPairingUnit(history: readonly HistoryEntry[], index: number): boolean {
  const entry = history[index] as HistoryEntry;
  if (index === 0 || entry.speaker === 'human') return true;
  return entry.speaker === 'ai' && history[index - 1]?.speaker !== 'ai';
}

/**
 * Whether the turns around some positions of `history` have any tool call / response pairing problem: the pairing
 * units (from one turn start to the next, see {@link findToolPairingProblems}) that hold a position of `near` are
 * checked, and nothing else. `near` must be sorted ascending.
 *
 * An edit of a pair-valid region can only add problems to the units it touches; a caller that marks every entry a
 * change touched (the entry, its neighbours, both sides of a removal) learns with this check whether a full scan is
 * needed at all. Cost: the touched units, not the history.
 *
 * @param history - The history after the change.
 * @param near - Ascending positions in `history` whose units to check; out-of-range positions are ignored.
 */
export function hasPairingProblemsNear(history: readonly HistoryEntry[], near: readonly number[]): boolean {
  let checkedUntil = 0;
  for (const position of near) {
    if (position < checkedUntil || position < 0 || position >= history.length) continue;
    let start = position;
    while (!startsPairingUnit(history, start)) start -= 1;
    let end = position + 1;
    while (end < history.length && !startsPairingUnit(history, end)) end += 1;
    // Later positions inside this unit are covered; adjacent units are merged by the next iteration's start.
    if (findToolPairingProblems(history.slice(start, end)).length > 0) return true;
    checkedUntil = end;
  }
  return false;
}
