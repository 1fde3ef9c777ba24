import { CtxError } from '@ctx/core';
import { CliError } from './cli-io.js';

const marker = 'ctx.error.UsageError';
const symbol = Symbol.for(marker);

/**
 * The command line itself is wrong: an option value out of its range or not a number, an empty or unknown strategy
 * name, a malformed `--set`. Nothing has run; printed as one line, exit code 2 (like commander's own usage errors).
 */
export class UsageError extends CliError {
  private readonly [symbol] = true;

  /**
   * @param message - One line naming the option: what was expected and what was given.
   * @param options - `cause`: the underlying error, shown with `--debug`.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { ...options, name: 'UsageError' });
  }

  /** Returns true when `error` is a `UsageError` from any copy of the playground. */
  static override isInstance(error: unknown): error is UsageError {
    return CtxError.hasMarker(error, marker);
  }
}
