import { decideCompression, type TurnReport } from '@ctx/core';
import { compactionsOf, type StressCall, type StressSend } from './stress-send.js';

/**
 * The three ways a session can loop instead of making progress:
 * - `no-reduction`: a send on which a compaction was applied, yet the provider's count of the request as sent is
 *   not smaller than its count of the request right before the first compaction pass (`ceil(ratio × tokensBefore)`
 *   of that pass): work was done and committed for nothing.
 * - `retrying-every-turn`: compression passes ran (not `no-progress-backoff` skips) on
 *   {@link retryStreakLength} or more consecutive sends, none of those sends applied a compaction, and after each of
 *   them the calibrated request was still over the compression trigger (threshold, or the window minus the
 *   safety buffer and reserved output). Flagged once per streak, at the send that reaches the length.
 * - `thrashing`: compactions applied on two consecutive sends with less than {@link thrashingGrowthShare} of the
 *   window (in provider tokens, `ratio × our tokens`) added between them, the second one chosen by the threshold
 *   trigger: the first compaction left no room. A compaction on the emergency path (the request did not fit, so it
 *   was required) is not thrashing: it is what keeps the request inside the window when the chain cannot reach its
 *   target.
 */
export type StressLoopKind = 'no-reduction' | 'retrying-every-turn' | 'thrashing';

/** One loop found in a session. */
export interface StressLoop {
  readonly kind: StressLoopKind;
  /** The send it was detected on. */
  readonly sendIndex: number;
  readonly turn: number;
  readonly call: StressCall;
  /** What happened, with the figures. */
  readonly detail: string;
  /** The report of that send. */
  readonly report: TurnReport;
}

/** Consecutive sends of futile compression that make a `retrying-every-turn` loop. */
export const retryStreakLength = 3;

/** Growth between two compacting sends under which they are `thrashing`, as a share of the window. */
export const thrashingGrowthShare = 0.05;

const integer = new Intl.NumberFormat('en-US');

/** True when compression passes really ran on this send (a backoff skip does not count) and none applied. */
function ranWithoutEffect(send: StressSend): boolean {
  const compression = send.report.passes.filter((pass) => pass.pass === 'compression');
  const ran = compression.some((pass) => pass.reason !== 'no-progress-backoff');
  return ran && compactionsOf(send.report).length === 0;
}

/** True when the calibrated request after the send's passes still passes the compression trigger. */
function stillOverTrigger(send: StressSend, reservedOutputTokens: number): boolean {
  return decideCompression({
    currentTokens: send.report.request.calibratedTokens,
    contextLimit: send.contextLimit,
    threshold: send.report.threshold.value,
    reservedOutputTokens,
  }).compress;
}

/**
 * Finds the loops of one session (definitions at {@link StressLoopKind}).
 *
 * @param sends - The session's sends, in order.
 * @param options.reservedOutputTokens - The session's `compression.reservedOutputTokens`.
 * @returns The loops, in the order of the sends they were detected on.
 */
export function detectStressLoops(
  sends: readonly StressSend[],
  options: { readonly reservedOutputTokens: number },
): StressLoop[] {
  const loops: StressLoop[] = [];
  const loop = (kind: StressLoopKind, send: StressSend, detail: string) =>
    loops.push({ kind, sendIndex: send.index, turn: send.turn, call: send.call, detail, report: send.report });
  let streak = 0;
  let previous: StressSend | undefined;
  for (const send of sends) {
    const compactions = compactionsOf(send.report);
    const first = compactions[0];
    if (first !== undefined) {
      const realBefore = Math.ceil(send.tokenRatio * first.tokensBefore);
      if (send.realTokens >= realBefore) {
        loop(
          'no-reduction',
          send,
          `${compactions.map((pass) => pass.strategy).join(', ')} applied but the request went from ${integer.format(realBefore)} to ${integer.format(send.realTokens)} provider tokens`,
        );
      }
      if (previous !== undefined && !send.report.emergency && compactionsOf(previous.report).length > 0) {
        const added = send.tokenRatio * (send.tokensBefore - previous.ourTokens);
        if (added < thrashingGrowthShare * send.contextLimit) {
          loop(
            'thrashing',
            send,
            `compacted again on the next send with ${integer.format(Math.round(added))} provider tokens added since (less than ${thrashingGrowthShare * 100}% of the ${integer.format(send.contextLimit)}-token window)`,
          );
        }
      }
    }
    if (ranWithoutEffect(send) && stillOverTrigger(send, options.reservedOutputTokens)) {
      streak += 1;
      if (streak === retryStreakLength) {
        loop(
          'retrying-every-turn',
          send,
          `compression ran without effect on ${retryStreakLength} consecutive sends while the request stayed over the trigger (${integer.format(send.report.request.calibratedTokens)} calibrated tokens, threshold ${integer.format(Math.round(send.report.threshold.value * send.contextLimit))})`,
        );
      }
    } else {
      streak = 0;
    }
    previous = send;
  }
  return loops;
}
