import {
  DEFAULT_COMPRESSION_THRESHOLD,
  getHistoryTokenTarget,
  parseStrategySettings,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type StrategyWarning,
  type Summarizer,
  formatCount,
} from '@ctx/core';
import {
  buildSummaryInstructions,
  checkCompressionPreconditions,
  createSummaryEntry,
  customPromptOf,
  findSafeCutIndices,
  findThinkingToolLoopStart,
  missingSummarizerResult,
  requestSummary,
  summaryCounts,
  type SummaryFailure,
  summaryFailureResult,
  type SummaryText,
} from '@ctx/strategy-utils';
import { nativeSettingsSchema, type NativeSettings, type NativeSettingsInput } from './native-settings.js';

const name = 'native';

/** What the native strategy takes besides its settings (settings are plain data; a summarizer is not). */
export interface NativeStrategyOptions {
  /**
   * The condensing profile's summarizer (spec 004 FR-PR-001/002): used instead of the conversation's
   * (`CompressionContext.summarizer`), e.g. a cheaper model; when it fails, the conversation's summarizer is tried.
   */
  readonly condensingSummarizer?: Summarizer;
}

/**
 * Where the kept part starts: `keepLastMessages` from the end, moved earlier to a safe cut (no tool call split from
 * its result, the turn still in its tool loop with thinking kept whole); the first message (and its turn) stays.
 */
function findKeptRange(history: CompressionContext['history'], keepLastMessages: number): { headEnd: number; tailStart: number } {
  const cuts = findSafeCutIndices(history).filter((index) => index > 0 && index < history.length);
  const headEnd = cuts[0] ?? history.length;
  const loopStart = findThinkingToolLoopStart(history);
  const wanted = Math.min(history.length - keepLastMessages, loopStart ?? history.length);
  const tailStart = cuts.filter((index) => index <= wanted).at(-1) ?? headEnd;
  return { headEnd, tailStart: Math.max(headEnd, tailStart) };
}

/**
 * Creates the native strategy (spec 004 FR-PA-003, the native condensation provider, with Roo Code's condense
 * semantics): the first message is kept, the last `keepLastMessages` are kept, and everything between becomes one
 * summary written with the custom condensing prompt (FR-PR-003) by the condensing profile's summarizer — falling
 * back to the conversation's summarizer when that one fails (FR-PR-002's priority order), and to a mechanical
 * summary when both fail (spec 002 §6.3; or a `summarizer-failed` no-op with `fallbackOnFailure: false`). Cuts are
 * pair-safe; a summary that would not shrink the history is refused (Roo Code's "context grew" check).
 *
 * @param settings - Validated once, here.
 * @param options - The condensing profile's summarizer.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings, e.g. `keepLastMessages: 0`.
 * @example
 * ```ts
 * const strategy = createNativeStrategy(
 *   { customPrompt: 'Summarize the decisions and the open questions.' },
 *   { condensingSummarizer: createAiSdkSummarizer({ model: cheapModel }) },
 * );
 * ```
 */
export function createNativeStrategy(settings?: NativeSettingsInput, options: NativeStrategyOptions = {}): CompressionStrategy<NativeSettings> {
  const resolved = parseStrategySettings(nativeSettingsSchema, settings, name);

  return {
    specificationVersion: 'v1',
    name,
    description:
      "Roo Code's condense: keeps the first and the last messages, summarizes the rest with a custom prompt and the condensing profile's model (LLM).",
    requiresLLM: true,
    trigger: { mode: 'threshold', defaultThreshold: DEFAULT_COMPRESSION_THRESHOLD },
    capabilities: { lossless: false, estimatedSpeed: 'slow' },
    settingsSchema: nativeSettingsSchema,
    settings: resolved,

    async compress(context): Promise<CompressionResult> {
      const start = checkCompressionPreconditions(context);
      if (start.kind === 'no-op') return start.result;
      const { tokensBefore, target } = start;
      const summarizers = [options.condensingSummarizer, context.summarizer].filter((summarizer): summarizer is Summarizer => summarizer !== undefined);
      if (summarizers.length === 0) return missingSummarizerResult(name, 'or a condensingSummarizer to createNativeStrategy');
      const { history, tokenCounter: counter } = context;
      const { headEnd, tailStart } = findKeptRange(history, resolved.keepLastMessages);
      if (tailStart <= headEnd) {
        return {
          type: 'no-op',
          reason: 'too-few-compressible',
          message: `nothing between the first message and the last ${resolved.keepLastMessages} messages to summarize (${history.length} entries)`,
        };
      }
      const head = history.slice(0, headEnd);
      const middle = history.slice(headEnd, tailStart);
      const tail = history.slice(tailStart);
      const maxSummaryTokens = resolved.maxSummaryTokens ?? Math.max(16, Math.min(8_192, Math.floor(getHistoryTokenTarget(context.budget) / 2)));
      const instructions = buildSummaryInstructions({
        ...(context.activeTodos === undefined ? {} : { activeTodos: context.activeTodos }),
        // FR-PR-003: the condensing profile's prompt, else this strategy's own, else the built-in one.
        ...customPromptOf(context, resolved),
        maxSummaryTokens,
      });

      // FR-PR-002: the condensing profile's summarizer first, then the conversation's; the fallback only after both.
      const warnings: StrategyWarning[] = [];
      let summary: SummaryText | SummaryFailure | undefined;
      for (const [position, summarizer] of summarizers.entries()) {
        const last = position === summarizers.length - 1;
        summary = await requestSummary({
          context: { ...context, summarizer },
          entries: middle,
          instructions,
          maxSummaryTokens,
          summarizerWindow: resolved.summarizerWindow,
          fallbackOnFailure: last && resolved.fallbackOnFailure,
        });
        warnings.push(...summary.warnings);
        if (summary.kind !== 'failed' || last) break;
        warnings.push({
          type: 'fallback',
          message: `the condensing summarizer ${summarizer.name} failed (${summary.reason}: ${summary.message}); used the conversation's summarizer ${summarizers[position + 1]?.name ?? ''}`,
        });
      }
      if (summary === undefined) return { type: 'no-op', reason: 'missing-summarizer' };
      if (summary.kind !== 'summary') return { ...summaryFailureResult(summary), warnings };
      const entry = createSummaryEntry(summary.text, { generator: name, fallback: summary.source === 'fallback' });
      const newHistory = [...head, entry, ...tail];
      const tokensAfter = counter.countEntries(newHistory);
      if (tokensAfter >= tokensBefore) {
        return {
          type: 'no-op',
          reason: 'no-progress',
          message: `the context would grow: ${formatCount(tokensAfter)} tokens after, ${formatCount(tokensBefore)} before`,
          warnings,
        };
      }
      const summaryTokens = counter.countEntry(entry);
      warnings.push({
        type: 'lossy',
        message: `summarized ${middle.length} entries (${formatCount(counter.countEntries(middle))} tokens) into ${summary.source === 'fallback' ? 'a mechanical' : 'a'} ${formatCount(summaryTokens)}-token summary; kept the first ${head.length} and the last ${tail.length} entries`,
      });
      if (tokensAfter > target) {
        warnings.push({ type: 'target-not-met', message: `the result has ${formatCount(tokensAfter)} tokens; the target is ${formatCount(target)}` });
      }
      return {
        type: 'applied',
        newHistory,
        metadata: {
          originalMessageCount: history.length,
          compressedMessageCount: newHistory.length,
          strategyUsed: name,
          llmCallMade: summary.modelCalled,
          counts: summaryCounts({
            entriesSummarized: middle.length,
            summaryTokens,
            fallback: summary.source === 'fallback',
            ...(summary.usage === undefined ? {} : { usage: summary.usage }),
          }),
        },
        warnings,
      };
    },
  };
}
