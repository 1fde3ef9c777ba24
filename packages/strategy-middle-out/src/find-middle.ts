import type { HistoryEntry, TokenCounter } from '@ctx/core';
import { findFirstUserMessage, findOpenToolLoop, findSafeCutIndices, findThinkingToolLoopStart } from '@ctx/strategy-utils';

/** Where the middle to summarize starts and ends: `history[headEnd…tailStart)`. */
export interface MiddleSplit {
  readonly headEnd: number;
  readonly tailStart: number;
  /**
   * True when there is no middle because every head would leave the request ending in a tool loop that opened
   * without thinking (see {@link findMiddle}).
   */
  readonly noValidHead?: true;
}

/**
 * Splits the history into a head kept as it is, a middle to summarize, and a tail kept as it is. Both cuts are safe
 * cut indices (`findSafeCutIndices`: no tool call split from its response, no assistant turn split, never inside
 * the turn still in its tool loop with thinking).
 *
 * - The head runs at least through the first user message (Roo Code keeps the first message; it states the task),
 *   then takes whole turns while it stays within `headTokens`.
 * - The tail is the newest whole turns within `tailTokens`, and at least the last turn — unless the assistant turn
 *   still in its tool loop with thinking is larger than `tailTokens`: it cannot be cut, so it is summarized whole and
 *   there is no tail. The summary then follows the head, merged into the head's last tool results when the head ends
 *   in some: the request would end in that turn's tool loop, which, thinking being on, must have opened with
 *   thinking. So the head then ends at the last cut where it does not end in a loop that opened without thinking —
 *   before the first user message when no cut after it allows that (a request the provider accepts comes first; the
 *   summary quotes the latest user message when it falls in the middle), and there is no middle when no cut does.
 *
 * Linear: one pass of prefix sums over the cached per-entry counts (without a tail, each cut the head may end at that
 * is tried also reads the head once; the first or second usually does).
 *
 * @returns The split; `headEnd === tailStart` when there is no middle.
 */
export function findMiddle(
  history: readonly HistoryEntry[],
  counter: TokenCounter,
  budget: { readonly headTokens: number; readonly tailTokens: number },
): MiddleSplit {
  const prefix = [0];
  for (const entry of history) prefix.push((prefix.at(-1) as number) + counter.countEntry(entry));
  const total = prefix.at(-1) as number;
  const cuts = findSafeCutIndices(history).filter((index) => index > 0 && index < history.length);
  const firstUser = findFirstUserMessage(history) ?? 0;

  // The head: the first safe cut after the first user message, then further cuts while within budget.
  let headEnd = cuts.find((index) => index > firstUser) ?? history.length;
  for (const index of cuts) if (index > headEnd && (prefix[index] as number) <= budget.headTokens) headEnd = index;

  // The tail: the earliest cut whose suffix fits, but at least the last turn; never past the open loop's start. An
  // open loop larger than the tail's share is summarized whole (thinking and all): nothing of it is kept to need it.
  const loopStart = findThinkingToolLoopStart(history);
  if (loopStart !== undefined && loopStart >= headEnd && total - (prefix[loopStart] as number) > budget.tailTokens) {
    const end = lastHeadEndOutsideBareLoop(history, cuts, headEnd);
    return end === undefined ? { headEnd, tailStart: headEnd, noValidHead: true } : { headEnd: end, tailStart: history.length };
  }
  const candidates = cuts.filter((index) => index >= headEnd && (loopStart === undefined || index <= loopStart));
  let tailStart = candidates.at(-1) ?? headEnd;
  for (const index of candidates) {
    if (total - (prefix[index] as number) <= budget.tailTokens) {
      tailStart = Math.min(tailStart, index);
      break;
    }
  }
  return { headEnd, tailStart: Math.max(headEnd, tailStart) };
}

/**
 * The last cut up to `headEnd` after which the head, followed by nothing but the summary, does not end in a tool loop
 * whose opening message does not start with thinking (see `findOpenToolLoop`: a text step merged before the step with
 * thinking counts as not starting with it), or undefined. `headEnd` is past the first user message, so a cut after it
 * is found first when there is one.
 */
function lastHeadEndOutsideBareLoop(history: readonly HistoryEntry[], cuts: readonly number[], headEnd: number): number | undefined {
  for (let at = cuts.length - 1; at >= 0; at--) {
    const cut = cuts[at] as number;
    if (cut > headEnd) continue;
    const loop = findOpenToolLoop(history.slice(0, cut));
    if (loop === undefined || loop.startsWithThinking) return cut;
  }
  return undefined;
}
