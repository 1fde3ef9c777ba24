import { CtxError } from './ctx-error.js';

const name = 'HistoryLockedError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown when the history is changed in a way that cannot be reconciled with a compression in progress
 * (spec 000 ERR-030): applying a density result or clearing while `startCompression()` is active.
 * Entries added during a compression are not rejected; they are queued and appended when it ends.
 */
export class HistoryLockedError extends CtxError {
  private readonly [symbol] = true;

  /** The operation that was refused. */
  readonly operation: string;

  constructor({ operation }: { operation: string }) {
    super({
      name,
      message: `Cannot ${operation} while a compression is in progress; wait for the orchestrator's pending turn (or call endCompression()) first.`,
    });
    this.operation = operation;
  }

  /** Returns true when `error` is a `HistoryLockedError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is HistoryLockedError {
    return CtxError.hasMarker(error, marker);
  }
}
