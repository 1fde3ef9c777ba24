import { CtxError } from './ctx-error.js';
import { formatValidationIssues, type ValidationIssue } from './validation-issue.js';

const name = 'InvalidSettingsError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown when compression settings (`compression.*` keys) or orchestrator options fail validation.
 */
export class InvalidSettingsError extends CtxError {
  private readonly [symbol] = true;

  /** Every rejected setting. */
  readonly issues: readonly ValidationIssue[];

  constructor({ issues, cause }: { issues: readonly ValidationIssue[]; cause?: unknown }) {
    super({ name, message: `Invalid compression settings:\n${formatValidationIssues(issues)}`, cause });
    this.issues = issues;
  }

  /** Returns true when `error` is an `InvalidSettingsError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is InvalidSettingsError {
    return CtxError.hasMarker(error, marker);
  }
}
