import {
  DEFAULT_COMPRESSION_THRESHOLD,
  getHistoryTokenTarget,
  parseStrategySettings,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type StrategyWarning,
  formatCount,
} from '@ctx/core';
import {
  buildSummaryInstructions,
  checkCompressionPreconditions,
  createSummaryEntry,
  customPromptOf,
  findLatestUserRequest,
  missingSummarizerResult,
  requestSummary,
  summaryCounts,
  summaryFailureResult,
} from '@ctx/strategy-utils';
import { oneShotSettingsSchema, type OneShotSettings, type OneShotSettingsInput } from './one-shot-settings.js';

const name = 'one-shot';

/** Half the history target, at most 8,192 tokens (spec 002: the summary takes about half the buffer). */
function defaultSummaryTokens(context: CompressionContext): number {
  return Math.max(16, Math.min(8_192, Math.floor(getHistoryTokenTarget(context.budget) / 2)));
}

/**
 * Creates the one-shot strategy (spec 000 `OneShotStrategy`; spec 002 Proposal 5, the threshold strategy's
 * full-summary mode): when the context passes the threshold, the whole conversation becomes one structured summary
 * written by the context's summarizer, followed by a continuation that says the conversation was compacted, quotes
 * the user's latest request verbatim, lists the active todos and points at `transcriptPath`. There is no recent
 * tail to overflow the window again. An assistant turn still in its tool loop is summarized with the rest (thinking
 * blocks are never edited; a summarized turn loses them whole), so no call is left without its result.
 *
 * Every failure is handled (spec 002 Proposal 6): the request to the summarizer stays within 80% of its window;
 * a failed call, an empty summary or one larger than the conversation falls back to a mechanical summary with a
 * `fallback` warning (or, with `fallbackOnFailure: false`, a `summarizer-failed` no-op); an abort is a no-op. The
 * history is only ever replaced as a whole, so it is never left half-changed.
 *
 * @param settings - Validated once, here.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings, e.g. `summarizerWindow: 10`.
 * @example
 * ```ts
 * const orchestrator = createCompressionOrchestrator({
 *   history,
 *   strategies: [createOneShotStrategy()],
 *   contextLimit: 200_000,
 *   summarizer: createAiSdkSummarizer({ model }),
 * });
 * ```
 */
export function createOneShotStrategy(settings?: OneShotSettingsInput): CompressionStrategy<OneShotSettings> {
  const resolved = parseStrategySettings(oneShotSettingsSchema, settings, name);

  return {
    specificationVersion: 'v1',
    name,
    description:
      'Replaces the whole conversation with one structured summary (LLM) plus a continuation quoting the latest request; mechanical fallback when the model fails.',
    requiresLLM: true,
    trigger: { mode: 'threshold', defaultThreshold: DEFAULT_COMPRESSION_THRESHOLD },
    capabilities: { lossless: false, estimatedSpeed: 'slow' },
    settingsSchema: oneShotSettingsSchema,
    settings: resolved,

    async compress(context): Promise<CompressionResult> {
      const start = checkCompressionPreconditions(context);
      if (start.kind === 'no-op') return start.result;
      const { tokensBefore, target } = start;
      if (context.summarizer === undefined) return missingSummarizerResult(name);
      const { history, tokenCounter: counter } = context;
      // Everything, the turn still in its tool loop included: with no assistant turn left in the request, no provider
      // asks for its thinking, and no call is left without its result.
      const summarizedCount = history.length;
      const summarized = history;
      const maxSummaryTokens = resolved.maxSummaryTokens ?? defaultSummaryTokens(context);
      const instructions = buildSummaryInstructions({
        ...(context.activeTodos === undefined ? {} : { activeTodos: context.activeTodos }),
        // FR-PR-003: the condensing profile's prompt, else this strategy's own, else the built-in one.
        ...customPromptOf(context, resolved),
        maxSummaryTokens,
      });
      const summary = await requestSummary({
        context,
        entries: summarized,
        instructions,
        maxSummaryTokens,
        summarizerWindow: resolved.summarizerWindow,
        fallbackOnFailure: resolved.fallbackOnFailure,
      });
      if (summary.kind !== 'summary') return summaryFailureResult(summary);

      const latestUserRequest = findLatestUserRequest(history);
      const entry = createSummaryEntry(summary.text, {
        generator: name,
        fallback: summary.source === 'fallback',
        continuation: {
          ...(latestUserRequest === undefined ? {} : { latestUserRequest }),
          ...(context.activeTodos === undefined ? {} : { activeTodos: context.activeTodos }),
          ...(context.transcriptPath === undefined ? {} : { transcriptPath: context.transcriptPath }),
        },
      });
      const newHistory = [entry];
      const tokensAfter = counter.countEntries(newHistory);
      if (tokensAfter >= tokensBefore) {
        return {
          type: 'no-op',
          reason: 'no-progress',
          message: `the summary and continuation have ${formatCount(tokensAfter)} tokens, not fewer than the ${formatCount(tokensBefore)} of the history`,
          warnings: summary.warnings,
        };
      }
      const summaryTokens = counter.countEntry(entry);
      const warnings: StrategyWarning[] = [
        ...summary.warnings,
        {
          type: 'lossy',
          message: `summarized ${summarizedCount === 1 ? '1 entry' : `${summarizedCount} entries`} (${formatCount(counter.countEntries(summarized))} tokens) into ${summary.source === 'fallback' ? 'a mechanical' : 'a'} ${formatCount(summaryTokens)}-token summary; the originals are not in the history any more${context.transcriptPath === undefined ? '' : ` (the transcript at ${context.transcriptPath} has them)`}`,
        },
      ];
      if (tokensAfter > target) {
        warnings.push({
          type: 'target-not-met',
          message: `the result has ${formatCount(tokensAfter)} tokens; the target is ${formatCount(target)} (the summary and the quoted request)`,
        });
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
            entriesSummarized: summarizedCount,
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
