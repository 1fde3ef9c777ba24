import {
  getHistoryTokenTarget,
  type CompressionContext,
  type NoOpCompressionResult,
  formatCount,
} from '@ctx/core';

/** What `checkCompressionPreconditions` found: a no-op to return at once, or the numbers to compress against. */
export type CompressionPreconditions =
  | { readonly kind: 'no-op'; readonly result: NoOpCompressionResult }
  | {
      readonly kind: 'proceed';
      /** Tokens of the history as given. */
      readonly tokensBefore: number;
      /** What the history may take: `getHistoryTokenTarget(context.budget)`. */
      readonly target: number;
    };

/**
 * The checks every `compress()` starts with, in the order users expect their reasons: an aborted signal
 * (`aborted`), an empty history (`empty-history`), a history already within the target (`already-under-target`,
 * with both numbers in the message). Otherwise the history's tokens and the target, so the strategy does not count
 * them again.
 *
 * @param context - The compression context.
 * @returns A no-op result to return as it is, or `proceed` with `tokensBefore` and `target`.
 *
 * @example
 * ```ts
 * compress(context) {
 *   const start = checkCompressionPreconditions(context);
 *   if (start.kind === 'no-op') return Promise.resolve(start.result);
 *   const { tokensBefore, target } = start;
 *   // …
 * }
 * ```
 */
export function checkCompressionPreconditions(context: CompressionContext): CompressionPreconditions {
  if (context.signal?.aborted === true) return { kind: 'no-op', result: { type: 'no-op', reason: 'aborted' } };
  if (context.history.length === 0) return { kind: 'no-op', result: { type: 'no-op', reason: 'empty-history' } };
  const target = getHistoryTokenTarget(context.budget);
  const tokensBefore = context.tokenCounter.countEntries(context.history);
  if (tokensBefore <= target) {
    return {
      kind: 'no-op',
      result: {
        type: 'no-op',
        reason: 'already-under-target',
        message: `the history has ${formatCount(tokensBefore)} tokens; the target is ${formatCount(target)}`,
      },
    };
  }
  return { kind: 'proceed', tokensBefore, target };
}
