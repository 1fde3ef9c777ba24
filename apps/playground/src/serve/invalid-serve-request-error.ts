import { CtxError } from '@ctx/core';

const marker = 'ctx.error.InvalidServeRequestError';
const symbol = Symbol.for(marker);

/**
 * A request to the `ctx serve` API the server cannot run: a body that is not JSON, a missing or mistyped field, an
 * unknown session. Answered with status 400 and the message.
 */
export class InvalidServeRequestError extends CtxError {
  private readonly [symbol] = true;

  /**
   * @param options - `message`: what was expected, what was found and the fix; `cause`: the underlying error.
   */
  constructor(options: { message: string; cause?: unknown }) {
    super({ name: 'InvalidServeRequestError', ...options });
  }

  /** Returns true when `error` is an `InvalidServeRequestError` from any copy of the playground. */
  static override isInstance(error: unknown): error is InvalidServeRequestError {
    return CtxError.hasMarker(error, marker);
  }
}
