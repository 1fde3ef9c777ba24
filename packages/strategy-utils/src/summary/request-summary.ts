import {
  SummarizerError,
  type CompressionContext,
  type HistoryEntry,
  type StrategyWarning,
  type SummarizerFailureReason,
  type SummarizeResult,
  formatCount,
} from '@ctx/core';
import { buildFallbackSummary } from './fallback-summary.js';
import { fitSummarizerInput } from './fit-summarizer-input.js';

/** Why no model summary came back: the summarizer's own reasons, or one of ours. */
export type SummaryFailureReason = SummarizerFailureReason | 'inflation';

/** What {@link requestSummary} needs. */
export interface SummaryRequestOptions {
  readonly context: CompressionContext;
  /** The entries the summary replaces, oldest first. */
  readonly entries: readonly HistoryEntry[];
  /** From `buildSummaryInstructions`. */
  readonly instructions: string;
  /** The longest summary wanted, in tokens (sent as `maxOutputTokens`). */
  readonly maxSummaryTokens: number;
  /** The summarizer's window when it does not say (`Summarizer.contextWindow`). */
  readonly summarizerWindow: number;
  /** Use the mechanical summary when the model call fails (spec 002 §6.3); otherwise report the failure. */
  readonly fallbackOnFailure: boolean;
}

/** A summary to use: the model's, or the mechanical fallback. */
export interface SummaryText {
  readonly kind: 'summary';
  readonly text: string;
  readonly source: 'model' | 'fallback';
  /** What the model call cost, when it reported it. */
  readonly usage?: SummarizeResult['usage'];
  /** Why the fallback was used. */
  readonly failure?: { readonly reason: SummaryFailureReason; readonly message: string };
  /** What was cut from the request to fit the summarizer, and the fallback, as warnings for the result. */
  readonly warnings: readonly StrategyWarning[];
  /** True when the model was called (even if it failed). */
  readonly modelCalled: boolean;
}

/** No summary to use: the model call failed and no fallback was asked for (`failed`), or the caller aborted. */
export type SummaryFailure = SummaryFailureOf<'failed'> | SummaryFailureOf<'aborted'>;

/** One kind of {@link SummaryFailure}. */
export interface SummaryFailureOf<Kind extends 'failed' | 'aborted'> {
  readonly kind: Kind;
  readonly reason: SummaryFailureReason;
  readonly message: string;
  readonly warnings: readonly StrategyWarning[];
  readonly modelCalled: boolean;
}

function describeFailure(error: unknown): { reason: SummaryFailureReason; message: string } {
  if (SummarizerError.isInstance(error)) return { reason: error.reason, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { reason: 'other', message: message.split('\n')[0] ?? message };
}

/**
 * Asks the context's summarizer for a summary of `entries`, with every failure mode handled in one place for every
 * LLM strategy: the request is kept within 80% of the summarizer's window (spec 002 §6.2, see
 * `fitSummarizerInput`); a failed call (timeout, HTTP 429/5xx after the summarizer's retries, connection refused, a
 * malformed response), an empty summary, or a summary at least as large as what it replaces (inflation) falls back
 * to the mechanical summary (spec 002 §6.3) with a `fallback` warning — or, with `fallbackOnFailure: false`, comes
 * back as a failure for the strategy to turn into a no-op. An aborted signal is never covered up by a fallback.
 *
 * Call it only when `context.summarizer` is set; without one it returns a failure with reason `other`.
 *
 * @param options - The context, the entries, the instructions and the limits.
 * @returns The summary to use, or why there is none.
 * @example
 * ```ts
 * const summary = await requestSummary({ context, entries: middle, instructions, maxSummaryTokens: 4_000,
 *   summarizerWindow: 128_000, fallbackOnFailure: true });
 * if (summary.kind !== 'summary') return { type: 'no-op', reason: 'aborted' };
 * ```
 */
export async function requestSummary(options: SummaryRequestOptions): Promise<SummaryText | SummaryFailure> {
  const { context, entries, instructions } = options;
  const { summarizer, tokenCounter: counter } = context;
  if (summarizer === undefined) {
    return { kind: 'failed', reason: 'other', message: 'no summarizer was given', warnings: [], modelCalled: false };
  }
  const warnings: StrategyWarning[] = [];
  const replacedTokens = counter.countEntries(entries);
  const window = summarizer.contextWindow ?? options.summarizerWindow;
  const maxSummaryTokens = Math.max(1, Math.floor(options.maxSummaryTokens));
  const inputBudget = Math.floor(window * 0.8) - counter.countText(instructions);
  const fitted = fitSummarizerInput(entries, { tokenCounter: counter, maxTokens: inputBudget });
  if (fitted.toolResultsCut + fitted.entriesDropped + fitted.textsCut > 0) {
    const what = [
      fitted.toolResultsCut > 0 ? `cut ${fitted.toolResultsCut} large tool outputs to their beginning and end` : '',
      fitted.entriesDropped > 0 ? `left out the ${fitted.entriesDropped} oldest entries` : '',
      fitted.textsCut > 0 ? `cut ${fitted.textsCut} long texts of the one entry left` : '',
    ].filter((part) => part !== '');
    warnings.push({
      type: 'lossy',
      message: `the summarizer ${summarizer.name} saw ${formatCount(fitted.tokens)} of ${formatCount(replacedTokens)} tokens: to stay within 80% of its ${formatCount(window)}-token window, ctx ${what.join(', ')}`,
    });
  }

  let failure: { reason: SummaryFailureReason; message: string };
  try {
    const result = await summarizer.summarize({
      entries: fitted.entries,
      instructions,
      maxOutputTokens: maxSummaryTokens,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    const text = result.text.trim();
    const summaryTokens = text === '' ? 0 : counter.countText(text);
    if (text === '') {
      failure = { reason: 'empty-summary', message: `${summarizer.name} answered with an empty summary` };
    } else if (summaryTokens >= replacedTokens) {
      failure = {
        reason: 'inflation',
        message: `${summarizer.name}'s summary has ${formatCount(summaryTokens)} tokens, not fewer than the ${formatCount(replacedTokens)} it would replace`,
      };
    } else {
      return { kind: 'summary', text, source: 'model', ...(result.usage === undefined ? {} : { usage: result.usage }), warnings, modelCalled: true };
    }
  } catch (error) {
    failure = describeFailure(error);
    if (context.signal?.aborted === true || failure.reason === 'aborted') {
      return { kind: 'aborted', reason: 'aborted', message: failure.message, warnings, modelCalled: true };
    }
  }

  if (!options.fallbackOnFailure) return { kind: 'failed', ...failure, warnings, modelCalled: true };
  // The mechanical summary must shrink the history too: at most the summary limit, and under half of what it replaces.
  const fallbackLimit = Math.max(1, Math.min(maxSummaryTokens, Math.floor(replacedTokens / 2)));
  const text = buildFallbackSummary(entries, { tokenCounter: counter, maxTokens: fallbackLimit });
  warnings.push({
    type: 'fallback',
    message: `used a mechanical summary (the first 200 characters of each entry) because the summary failed: ${failure.message}`,
  });
  return { kind: 'summary', text, source: 'fallback', failure, warnings, modelCalled: true };
}
