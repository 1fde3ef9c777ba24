import { CtxError, formatValidationIssues, type ValidationIssue } from '@ctx/core';

const name = 'InvalidSummarizerOptionsError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/** Thrown by {@link createAiSdkSummarizer} when its options fail validation; the message lists every problem. */
export class InvalidSummarizerOptionsError extends CtxError {
  private readonly [symbol] = true;

  /** Every rejected option. */
  readonly issues: readonly ValidationIssue[];

  /** @param options - `issues`: the rejected options, as `path: problem`. */
  constructor({ issues }: { issues: readonly ValidationIssue[] }) {
    super({ name, message: `Invalid AI SDK summarizer options:\n${formatValidationIssues(issues)}` });
    this.issues = issues;
  }

  /** Returns true when `error` is an `InvalidSummarizerOptionsError` from any copy of this package. */
  static override isInstance(error: unknown): error is InvalidSummarizerOptionsError {
    return CtxError.hasMarker(error, marker);
  }
}
