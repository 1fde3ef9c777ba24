import { CtxError } from './ctx-error.js';

const name = 'StaleDensityResultError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown by `HistoryService.applyDensityResult` when the history changed under a density result: its indices point
 * into a history that is no longer there (another result was applied, a compression rebuilt it, it was cleared), so
 * applying it would remove or replace the wrong entries. Nothing is changed. Run `optimize()` again on
 * `getRawHistory()` and apply that result.
 */
export class StaleDensityResultError extends CtxError {
  private readonly [symbol] = true;

  /** The strategy whose result was refused, when known. */
  readonly strategyName: string | undefined;
  /**
   * - `basis-changed`: the `basis` snapshot passed with the result is no longer a prefix of the history.
   * - `rewritten`: no `basis` was passed, and the history was rewritten after it was last read.
   */
  readonly reason: 'basis-changed' | 'rewritten';
  /** For `basis-changed`: the first index whose entry is not the one the result was computed on. */
  readonly firstChangedIndex: number | undefined;

  constructor({
    strategyName,
    reason,
    firstChangedIndex,
    basisLength,
    historyLength,
  }: {
    strategyName?: string | undefined;
    reason: 'basis-changed' | 'rewritten';
    firstChangedIndex?: number;
    basisLength?: number;
    historyLength?: number;
  }) {
    const whose = strategyName === undefined ? 'a density result' : `the density result of strategy "${strategyName}"`;
    const found =
      reason === 'rewritten'
        ? 'the history was rewritten (a density result applied, a compression, or a clear) after it was last read'
        : `the history it was computed on (${basisLength ?? '?'} entries) is no longer a prefix of the history (${historyLength ?? '?'} entries): entry ${firstChangedIndex ?? '?'} changed`;
    super({
      name,
      message: `Refused to apply ${whose}: expected it to be computed on the current history, but ${found}. Run optimize() again on getRawHistory() and apply that result; nothing was changed.`,
    });
    this.strategyName = strategyName;
    this.reason = reason;
    this.firstChangedIndex = firstChangedIndex;
  }

  /** Returns true when `error` is a `StaleDensityResultError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is StaleDensityResultError {
    return CtxError.hasMarker(error, marker);
  }
}
