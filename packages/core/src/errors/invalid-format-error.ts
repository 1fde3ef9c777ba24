import { CtxError } from './ctx-error.js';
import { formatValidationIssues, type ValidationIssue } from './validation-issue.js';

const name = 'InvalidFormatError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown by a format codec when its input is not in the format it reads (e.g. an Anthropic message without
 * `role`). `issues` name every failing path; `line` is set for line-based formats.
 */
export class InvalidFormatError extends CtxError {
  private readonly [symbol] = true;

  /** The format that was expected, e.g. `anthropic-messages`. */
  readonly format: string;
  readonly issues: readonly ValidationIssue[];

  constructor({ format, issues, cause }: { format: string; issues: readonly ValidationIssue[]; cause?: unknown }) {
    super({ name, message: `Input is not valid ${format}:\n${formatValidationIssues(issues)}`, cause });
    this.format = format;
    this.issues = issues;
  }

  /** Returns true when `error` is an `InvalidFormatError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is InvalidFormatError {
    return CtxError.hasMarker(error, marker);
  }
}
