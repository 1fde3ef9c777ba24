import type { NoOpCompressionResult } from '@ctx/core';
import type { SummaryFailure } from './request-summary.js';

/**
 * The no-op of an LLM strategy that was given no summarizer, naming where one comes from (the orchestrator option,
 * the CLI flags, and any of the strategy's own ways, e.g. native's `condensingSummarizer`).
 *
 * @param strategyName - The strategy's name, for the message.
 * @param alsoFrom - Another way to give this strategy a summarizer, e.g. `or a condensingSummarizer to createNativeStrategy`.
 * @returns A `missing-summarizer` no-op.
 * @example
 * ```ts
 * if (context.summarizer === undefined) return missingSummarizerResult('one-shot');
 * ```
 */
export function missingSummarizerResult(strategyName: string, alsoFrom?: string): NoOpCompressionResult {
  return {
    type: 'no-op',
    reason: 'missing-summarizer',
    message: `${strategyName} summarizes with a model: pass a summarizer to the orchestrator (createCompressionOrchestrator({ summarizer }))${alsoFrom === undefined ? '' : ` ${alsoFrom}`}, or in the CLI --summarizer-url and --summarizer-model`,
  };
}

/**
 * The no-op of an LLM strategy whose summary came back unusable: `aborted` when the caller aborted,
 * `summarizer-failed` with the reason when the model failed and no fallback was asked for. The warnings of the
 * attempt (what was cut to fit the summarizer) are kept.
 *
 * @param failure - What `requestSummary` returned.
 * @returns The no-op.
 * @example
 * ```ts
 * if (summary.kind !== 'summary') return summaryFailureResult(summary);
 * ```
 */
export function summaryFailureResult(failure: SummaryFailure): NoOpCompressionResult {
  return failure.kind === 'aborted'
    ? { type: 'no-op', reason: 'aborted', message: failure.message, warnings: failure.warnings }
    : { type: 'no-op', reason: 'summarizer-failed', message: `${failure.reason}: ${failure.message}`, warnings: failure.warnings };
}
