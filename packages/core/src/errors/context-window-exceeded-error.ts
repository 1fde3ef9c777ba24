import { CtxError } from './ctx-error.js';

const name = 'ContextWindowExceededError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown by the emergency path (`enforceContextWindow`) when, after density optimization and compression, the
 * request still does not fit the context window. Sending it would be rejected by the provider.
 */
export class ContextWindowExceededError extends CtxError {
  private readonly [symbol] = true;

  /** Tokens the request would need (history + system + tools + pending message). */
  readonly projectedTokens: number;
  /** Tokens available (context window minus reserved output tokens). */
  readonly availableTokens: number;

  constructor({ projectedTokens, availableTokens }: { projectedTokens: number; availableTokens: number }) {
    super({
      name,
      message: `The request needs ${projectedTokens} tokens but only ${availableTokens} fit the context window after compression; use a strategy that can drop or summarize more, raise the window, or lower reservedOutputTokens.`,
    });
    this.projectedTokens = projectedTokens;
    this.availableTokens = availableTokens;
  }

  /** Returns true when `error` is a `ContextWindowExceededError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is ContextWindowExceededError {
    return CtxError.hasMarker(error, marker);
  }
}
