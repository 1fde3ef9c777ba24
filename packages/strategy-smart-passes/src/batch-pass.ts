import type { CompressionContext, HistoryEntry, StrategyWarning, Summarizer } from '@ctx/core';
import {
  buildFallbackSummary,
  buildSummaryInstructions,
  createSummaryEntry,
  isSafeCutIndex,
  requestSummary,
} from '@ctx/strategy-utils';
import type { PassConfig } from './smart-passes-settings.js';

/** What {@link runBatchPass} did. */
export interface BatchPassResult {
  readonly history: readonly HistoryEntry[];
  /** Entries replaced by the summary (0 when the pass changed nothing). */
  readonly summarized: number;
  readonly warnings: readonly StrategyWarning[];
  readonly modelCalled: boolean;
  readonly fallback: boolean;
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  /** The caller aborted while the summarizer worked. */
  readonly aborted: boolean;
}

/** The summarizer's window when it does not say (`Summarizer.contextWindow`). */
const fallbackWindow = 128_000;

/**
 * The pair-safe part of `[start, end)` to summarize: `start` moves forward and `end` backward to cut points that keep
 * every tool call with its result, every assistant turn whole, and the turn still in its tool loop untouched.
 */
export function findBatchSpan(history: readonly HistoryEntry[], start: number, end: number): { start: number; end: number } {
  let from = Math.max(0, start);
  let to = Math.min(history.length, end);
  while (from < to && !isSafeCutIndex(history, from)) from++;
  while (to > from && !isSafeCutIndex(history, to)) to--;
  return { start: from, end: to };
}

/**
 * Runs one batch-mode pass (spec 004 FR-SM-004): the selected entries minus the first `keepFirst` and the last
 * `keepLast` become one summary entry (`createSummaryEntry`, marked as generated), cut only at pair-safe points. The
 * summary comes from the summarizer with the pass's `customPrompt`; without a summarizer, or when it fails, it is the
 * mechanical summary (`buildFallbackSummary`) with a `fallback` warning. Operation `keep` changes nothing, nor does a
 * summary that would not save tokens.
 *
 * @param history - The history the pass sees.
 * @param pass - The pass (mode `batch`).
 * @param options - The selected range, the context and the summarizer.
 * @returns The new history and what was done.
 */
export async function runBatchPass(
  history: readonly HistoryEntry[],
  pass: PassConfig,
  options: { readonly range: { start: number; end: number }; readonly context: CompressionContext; readonly summarizer: Summarizer | undefined },
): Promise<BatchPassResult> {
  const unchanged: BatchPassResult = { history, summarized: 0, warnings: [], modelCalled: false, fallback: false, aborted: false };
  const config = pass.batchConfig;
  if (config === undefined || config.operation === 'keep') return unchanged;
  const { keepFirst, keepLast, customPrompt, maxTokens } = config.summarizationConfig;
  const span = findBatchSpan(history, options.range.start + keepFirst, options.range.end - keepLast);
  if (span.end - span.start < 1) return unchanged;
  const entries = history.slice(span.start, span.end);
  const { context, summarizer } = options;
  const counter = context.tokenCounter;
  const replacedTokens = counter.countEntries(entries);
  const maxSummaryTokens = maxTokens ?? Math.max(16, Math.min(4_000, Math.floor(replacedTokens / 4)));
  const warnings: StrategyWarning[] = [];
  let text: string;
  let fallback: boolean;
  let modelCalled = false;
  let usage: BatchPassResult['usage'];
  if (summarizer === undefined) {
    text = buildFallbackSummary(entries, { tokenCounter: counter, maxTokens: Math.max(1, Math.min(maxSummaryTokens, Math.floor(replacedTokens / 2))) });
    fallback = true;
    warnings.push({ type: 'fallback', message: `pass ${pass.id}: no summarizer was given, so ${entries.length} entries got a mechanical summary (the first 200 characters of each)` });
  } else {
    const instructions = buildSummaryInstructions({
      ...(context.activeTodos === undefined ? {} : { activeTodos: context.activeTodos }),
      ...(customPrompt === undefined ? {} : { customPrompt }),
      maxSummaryTokens,
    });
    const summary = await requestSummary({
      context: { ...context, history, summarizer },
      entries,
      instructions,
      maxSummaryTokens,
      summarizerWindow: fallbackWindow,
      fallbackOnFailure: true,
    });
    warnings.push(...summary.warnings.map((warning) => ({ ...warning, message: `pass ${pass.id}: ${warning.message}` })));
    if (summary.kind !== 'summary') return { ...unchanged, warnings, modelCalled: summary.modelCalled, aborted: summary.kind === 'aborted' };
    text = summary.text;
    fallback = summary.source === 'fallback';
    modelCalled = summary.modelCalled;
    if (summary.usage !== undefined) usage = { inputTokens: summary.usage.inputTokens, outputTokens: summary.usage.outputTokens };
  }
  const entry = createSummaryEntry(text, { generator: 'smart-passes', fallback });
  if (counter.countEntry(entry) >= replacedTokens) return { ...unchanged, warnings, modelCalled, ...(usage === undefined ? {} : { usage }) };
  return {
    history: [...history.slice(0, span.start), entry, ...history.slice(span.end)],
    summarized: entries.length,
    warnings,
    modelCalled,
    fallback,
    aborted: false,
    ...(usage === undefined ? {} : { usage }),
  };
}
