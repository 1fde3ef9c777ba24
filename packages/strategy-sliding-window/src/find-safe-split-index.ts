import type { HistoryEntry } from '@ctx/core';
import { isSafeCutIndex } from '@ctx/strategy-utils';

/**
 * A pair-safe place to split a history: `history[0…index)` is compacted, `history[index…]` is kept.
 *
 * `walk` says how it was found:
 * - `text-boundary`: the backward walk reached an entry that starts a turn and carries no tool call (a user message
 *   or an assistant turn that opens with text), at or before the candidate (spec 002 `walkBackToPairBoundary`);
 * - `pair-seam`: the backward walk found none, so the forward walk went to the next seam between two complete
 *   call/result pairs, at or after the candidate (spec 002 `walkForwardToPairBoundary`);
 * - `earlier-pair-seam`: neither found one (the candidate lies in the newest call/result pair), so the nearest seam
 *   before the candidate is used, which keeps the floor of one compacted entry without splitting a pair.
 */
export interface SafeSplit {
  readonly index: number;
  readonly walk: 'text-boundary' | 'pair-seam' | 'earlier-pair-seam';
  /** The candidate asked to compact nothing and was raised to the floor, index 1 (spec 002: warn when it happens). */
  readonly floorHit: boolean;
}

/** Options of {@link findSafeSplitIndex}. */
export interface SafeSplitOptions {
  /**
   * Only splits after this index are accepted: the retry loop passes its previous split so that every retry keeps
   * fewer entries, and a backward walk that would fall back to (or behind) it counts as having found nothing.
   * @default 0
   */
  readonly after?: number;
}

function carriesToolCall(entry: HistoryEntry): boolean {
  return entry.blocks.some((block) => block.type === 'tool_call');
}

/**
 * Adjusts a candidate split index so that it never separates a tool call from its result (spec 002
 * `safeSplitIndex`, Proposal 1 and the floor fix). Two phases, then a last resort:
 *
 * 1. Walk backward from the candidate to a clean text boundary: a cut before a `human` entry, or before the first
 *    entry of an assistant turn when that entry carries no tool call. Mixed conversations split as before.
 * 2. If the walk reaches the floor without finding one, walk forward from the candidate to the nearest pair seam (a
 *    cut right after a turn's tool results, before the next turn). Pure-tool conversations still compact.
 * 3. If there is none before the newest entry, take the nearest seam before the candidate.
 *
 * The floor is index 1: at least one entry is always compacted (a candidate below 1 is raised to 1 and reported as
 * `floorHit`), and the newest entry is always kept. Safe cuts are `@ctx/strategy-utils`' `isSafeCutIndex`:
 * consecutive `ai` entries are one turn and are never split.
 *
 * Linear in the number of entries.
 *
 * @param history - The history to split.
 * @param candidate - Where the recent window would start before adjustment (`history.length − recentKeep`).
 * @param options - `after`: only accept splits after this index.
 * @returns The adjusted split, or undefined when no pair-safe split compacts at least one entry (after `after`)
 *   and keeps the newest one.
 * @example
 * ```ts
 * // [human, ai "let me check", ai call, tool result, ai "done", human "thanks"]
 * findSafeSplitIndex(history, 3); // { index: 1, walk: 'text-boundary', floorHit: false }
 * ```
 */
export function findSafeSplitIndex(
  history: readonly HistoryEntry[],
  candidate: number,
  options: SafeSplitOptions = {},
): SafeSplit | undefined {
  const newest = history.length - 1;
  const lowest = Math.max(1, (options.after ?? 0) + 1);
  if (lowest > newest) return undefined;
  const floorHit = candidate < 1;
  const start = Math.min(Math.max(candidate, lowest), newest);

  for (let index = start; index >= lowest; index--) {
    if (isSafeCutIndex(history, index) && !carriesToolCall(history[index] as HistoryEntry)) {
      return { index, walk: 'text-boundary', floorHit };
    }
  }
  for (let index = start; index <= newest; index++) {
    if (isSafeCutIndex(history, index)) return { index, walk: 'pair-seam', floorHit };
  }
  for (let index = start - 1; index >= lowest; index--) {
    if (isSafeCutIndex(history, index)) return { index, walk: 'earlier-pair-seam', floorHit };
  }
  return undefined;
}
