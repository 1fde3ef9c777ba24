import { CtxError } from './ctx-error.js';

const name = 'InvalidStrategyError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown when registering something that is not a valid `CompressionStrategy` (missing members, wrong
 * `specificationVersion`, a name already taken).
 */
export class InvalidStrategyError extends CtxError {
  private readonly [symbol] = true;

  constructor({ message }: { message: string }) {
    super({ name, message });
  }

  /** Returns true when `error` is an `InvalidStrategyError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is InvalidStrategyError {
    return CtxError.hasMarker(error, marker);
  }
}
