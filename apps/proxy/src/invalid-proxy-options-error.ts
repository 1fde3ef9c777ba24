import { CtxError } from '@ctx/core';

const name = 'InvalidProxyOptionsError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown at start-up when the proxy cannot run with the options given: an upstream that is not an http(s) URL, a
 * port or limit out of range, a preset that is unknown or needs a model. The message says what was expected, what
 * was found and the fix.
 */
export class InvalidProxyOptionsError extends CtxError {
  private readonly [symbol] = true;

  /** The option at fault, e.g. `upstream` or `preset`. */
  readonly option: string;

  constructor({ option, message, cause }: { option: string; message: string; cause?: unknown }) {
    super({ name, message, cause });
    this.option = option;
  }

  /** Returns true when `error` is an `InvalidProxyOptionsError` from any copy of `@ctx/proxy`. */
  static override isInstance(error: unknown): error is InvalidProxyOptionsError {
    return CtxError.hasMarker(error, marker);
  }
}
