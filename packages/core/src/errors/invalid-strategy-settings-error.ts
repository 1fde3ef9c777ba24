import { CtxError } from './ctx-error.js';
import { formatValidationIssues, type ValidationIssue } from './validation-issue.js';

const name = 'InvalidStrategySettingsError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown by a strategy factory when its settings fail validation. The message lists `option: problem` lines; `cause`
 * is the schema library's own error or issue list.
 */
export class InvalidStrategySettingsError extends CtxError {
  private readonly [symbol] = true;

  /** The strategy whose settings were rejected. */
  readonly strategyName: string;
  /** Every rejected option. */
  readonly issues: readonly ValidationIssue[];

  constructor({
    strategyName,
    issues,
    cause,
  }: {
    strategyName: string;
    issues: readonly ValidationIssue[];
    cause?: unknown;
  }) {
    super({ name, message: `Invalid settings for strategy "${strategyName}":\n${formatValidationIssues(issues)}`, cause });
    this.strategyName = strategyName;
    this.issues = issues;
  }

  /** Returns true when `error` is an `InvalidStrategySettingsError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is InvalidStrategySettingsError {
    return CtxError.hasMarker(error, marker);
  }
}
