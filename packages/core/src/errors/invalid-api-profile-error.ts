import { CtxError } from './ctx-error.js';
import { formatValidationIssues, type ValidationIssue } from './validation-issue.js';

const name = 'InvalidApiProfileError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown when API profiles fail validation (spec 004 FR-PR-001 "profile validation"): a duplicate or empty id, a
 * context window that is not a positive whole number, a threshold outside 5..100 and not -1, a condensing prompt
 * that is empty or too long, or a reference to a profile that does not exist. Lists every problem with its path.
 */
export class InvalidApiProfileError extends CtxError {
  private readonly [symbol] = true;

  /** Every problem found, e.g. `profiles[1].threshold: expected 5..100 (percent) or -1 (inherit), got 150`. */
  readonly issues: readonly ValidationIssue[];

  constructor({ issues, cause }: { issues: readonly ValidationIssue[]; cause?: unknown }) {
    super({ name, message: `Invalid API profiles:\n${formatValidationIssues(issues)}`, cause });
    this.issues = issues;
  }

  /** Returns true when `error` is an `InvalidApiProfileError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is InvalidApiProfileError {
    return CtxError.hasMarker(error, marker);
  }
}
