import { CtxError } from '@ctx/core';

const name = 'LosslessReferenceError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Why a reference could not be expanded: `missing-source` — no block with the source's call id precedes it and the
 * store has none (a lossy pass dropped it); `hash-mismatch` — the source is there but its lines no longer hash to
 * the recorded value (the source was edited); `invalid-record` — the stored record is not one this package wrote.
 */
export type LosslessReferenceProblem = 'missing-source' | 'hash-mismatch' | 'invalid-record';

/**
 * Thrown by `expandHistory` when a reference cannot be restored exactly. The history is left untouched.
 *
 * @example
 * ```ts
 * try {
 *   expandHistory(history);
 * } catch (error) {
 *   if (LosslessReferenceError.isInstance(error)) console.warn(error.problem, error.entryIndex);
 *   else throw error;
 * }
 * ```
 */
export class LosslessReferenceError extends CtxError {
  private readonly [symbol] = true;

  readonly problem: LosslessReferenceProblem;
  /** Index of the entry holding the reference. */
  readonly entryIndex: number;
  /** Index of the block holding the reference. */
  readonly blockIndex: number;

  constructor({
    message,
    problem,
    entryIndex,
    blockIndex,
    cause,
  }: {
    message: string;
    problem: LosslessReferenceProblem;
    entryIndex: number;
    blockIndex: number;
    cause?: unknown;
  }) {
    super({ name, message, cause });
    this.problem = problem;
    this.entryIndex = entryIndex;
    this.blockIndex = blockIndex;
  }

  /** Returns true when `error` is a `LosslessReferenceError` from any copy of this package. */
  static override isInstance(error: unknown): error is LosslessReferenceError {
    return CtxError.hasMarker(error, marker);
  }
}
