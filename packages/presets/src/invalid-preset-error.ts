import { CtxError, formatValidationIssues, type ValidationIssue } from '@ctx/core';

const name = 'InvalidPresetError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown when a preset cannot be used: its JSON does not match the preset format (the message lists `path: problem`
 * lines), or one of its steps names a strategy that is not available or rejects its settings (the message names the
 * step; `cause` is the strategy's own error).
 */
export class InvalidPresetError extends CtxError {
  private readonly [symbol] = true;

  /** The preset's name, when it was readable. */
  readonly presetName: string | undefined;
  /** Every problem found. */
  readonly issues: readonly ValidationIssue[];

  constructor({
    presetName,
    issues,
    cause,
  }: {
    presetName?: string | undefined;
    issues: readonly ValidationIssue[];
    cause?: unknown;
  }) {
    super({
      name,
      message: `Invalid preset${presetName === undefined ? '' : ` "${presetName}"`}:\n${formatValidationIssues(issues)}`,
      cause,
    });
    this.presetName = presetName;
    this.issues = issues;
  }

  /** Returns true when `error` is an `InvalidPresetError` from any copy of `@ctx/presets`. */
  static override isInstance(error: unknown): error is InvalidPresetError {
    return CtxError.hasMarker(error, marker);
  }
}
