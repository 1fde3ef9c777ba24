import { CtxError } from './ctx-error.js';

const name = 'TokenCountError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown (through `HistoryService.waitForTokenUpdates`) when the tokenizer fails on a history entry
 * (spec 000 ERR-020/021). `cause` is the tokenizer's error.
 */
export class TokenCountError extends CtxError {
  private readonly [symbol] = true;

  /** Index of the entry that could not be counted, or undefined for system instructions / tool definitions. */
  readonly entryIndex: number | undefined;

  constructor({ entryIndex, cause }: { entryIndex?: number; cause: unknown }) {
    const where = entryIndex === undefined ? 'the system instructions or tool definitions' : `history entry ${entryIndex}`;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super({ name, message: `Could not count the tokens of ${where}: ${reason}`, cause });
    this.entryIndex = entryIndex;
  }

  /** Returns true when `error` is a `TokenCountError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is TokenCountError {
    return CtxError.hasMarker(error, marker);
  }
}
