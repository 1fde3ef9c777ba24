import { CtxError } from './ctx-error.js';

const name = 'CompressionFailedError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown when the active strategy and every configured fallback strategy failed. `failures` holds each
 * strategy's error in the order they were tried; `cause` is the first one. The history is unchanged.
 */
export class CompressionFailedError extends CtxError {
  private readonly [symbol] = true;

  /** Each strategy tried and the error it raised. */
  readonly failures: readonly { readonly strategyName: string; readonly error: unknown }[];

  constructor({ failures }: { failures: readonly { readonly strategyName: string; readonly error: unknown }[] }) {
    const lines = failures.map(
      ({ strategyName, error }) => `  ${strategyName}: ${error instanceof Error ? error.message : String(error)}`,
    );
    super({
      name,
      message: `Every compression strategy failed; the history was left unchanged:\n${lines.join('\n')}`,
      cause: failures[0]?.error,
    });
    this.failures = failures;
  }

  /** Returns true when `error` is a `CompressionFailedError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is CompressionFailedError {
    return CtxError.hasMarker(error, marker);
  }
}
