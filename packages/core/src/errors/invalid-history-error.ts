import { CtxError } from './ctx-error.js';
import { formatValidationIssues, type ValidationIssue } from './validation-issue.js';

const name = 'InvalidHistoryError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown when history input (an entry, a list of entries or a whole conversation) does not match the canonical
 * model. `issues` names every path that failed, e.g. `history[3].blocks[0].callId`.
 */
export class InvalidHistoryError extends CtxError {
  private readonly [symbol] = true;

  /** Every problem found, in input order. */
  readonly issues: readonly ValidationIssue[];

  constructor({ issues, message, cause }: { issues: readonly ValidationIssue[]; message?: string; cause?: unknown }) {
    super({
      name,
      message: message ?? `Invalid history input:\n${formatValidationIssues(issues)}`,
      cause,
    });
    this.issues = issues;
  }

  /** Returns true when `error` is an `InvalidHistoryError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is InvalidHistoryError {
    return CtxError.hasMarker(error, marker);
  }
}
