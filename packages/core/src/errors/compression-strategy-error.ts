import { CtxError } from './ctx-error.js';

const name = 'CompressionStrategyError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown when a strategy breaks the contract: a `DensityResult` with conflicting, duplicate or out-of-range
 * indices (spec 000 ERR-010..013), or a compression result that is not a valid history or would break tool
 * call / response pairing. The history is left exactly as it was.
 */
export class CompressionStrategyError extends CtxError {
  private readonly [symbol] = true;

  /** Name of the strategy that produced the bad result, when known. */
  readonly strategyName: string | undefined;
  /** The offending history indices, when the problem is about indices. */
  readonly indices: readonly number[];

  constructor({
    message,
    strategyName,
    indices = [],
    cause,
  }: {
    message: string;
    strategyName?: string;
    indices?: readonly number[];
    cause?: unknown;
  }) {
    super({ name, message, cause });
    this.strategyName = strategyName;
    this.indices = indices;
  }

  /** Returns true when `error` is a `CompressionStrategyError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is CompressionStrategyError {
    return CtxError.hasMarker(error, marker);
  }
}
