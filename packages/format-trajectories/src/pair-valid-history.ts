import { findToolPairingProblems, type FormatWarning, type HistoryEntry } from '@ctx/core';

/** A history built from a trajectory and what the build had to report. */
export interface DraftHistory {
  readonly history: HistoryEntry[];
  readonly warnings: FormatWarning[];
}

/**
 * Builds a pair-valid history from a trajectory whose actions may lack observations (an agent's final `submit`, an
 * OpenHands `finish`, a run cut off mid-step). `build` turns every action into a tool call except those whose ids it
 * is told to demote (it keeps them as text and says so in a warning); this runs it, checks pairing with
 * `findToolPairingProblems`, and runs it again with the offending call ids demoted until nothing is left to fix.
 * Recorded trajectories need one pass, rarely two; each further pass demotes at least one more id, so it ends.
 *
 * @param build - Builds the history, given the call ids to keep as text.
 * @returns The last draft: pair-valid unless `build` ignores what it is told to demote.
 */
export function buildPairValidHistory(build: (demotedCallIds: ReadonlySet<string>) => DraftHistory): DraftHistory {
  let demoted: ReadonlySet<string> = new Set();
  for (;;) {
    const draft = build(demoted);
    const problems = findToolPairingProblems(draft.history);
    if (problems.length === 0) return draft;
    const next = new Set(demoted);
    for (const problem of problems) next.add(problem.callId);
    if (next.size === demoted.size) return draft;
    demoted = next;
  }
}
