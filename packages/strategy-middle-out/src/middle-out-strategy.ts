import {
  DEFAULT_COMPRESSION_THRESHOLD,
  getHistoryTokenTarget,
  parseStrategySettings,
  type CompressionResult,
  type CompressionStrategy,
  type HistoryEntry,
  type StrategyWarning,
  formatCount,
} from '@ctx/core';
import {
  buildSummaryInstructions,
  checkCompressionPreconditions,
  createSummaryEntry,
  customPromptOf,
  findLatestUserRequest,
  isHarnessEntry,
  missingSummarizerResult,
  requestSummary,
  summaryCounts,
  summaryFailureResult,
  typedPartOf,
} from '@ctx/strategy-utils';
import { findMiddle } from './find-middle.js';
import { middleOutSettingsSchema, type MiddleOutSettings, type MiddleOutSettingsInput } from './middle-out-settings.js';

const name = 'middle-out';

/** Index of the latest human entry with text the user typed, or -1. */
function latestUserTextIndex(history: readonly HistoryEntry[]): number {
  for (let index = history.length - 1; index >= 0; index--) {
    const entry = history[index] as HistoryEntry;
    if (entry.speaker !== 'human' || isHarnessEntry(entry)) continue;
    if (entry.blocks.some((block) => block.type === 'text' && (typedPartOf(block.text) ?? '').trim() !== '')) return index;
  }
  return -1;
}

/**
 * Creates the middle-out strategy (spec 000 `MiddleOutStrategy`, "sandwich" compression): when the context passes
 * the threshold, the head of the conversation (through the first user message, then whole turns within
 * `headShare` of the target) and its newest whole turns (within `tailShare`) stay exactly as they are, and the
 * middle becomes one structured summary written by the context's summarizer, placed between them. The head is kept
 * byte-identical — the same entry objects — so a provider's prompt cache over it survives. Cuts fall only where no
 * tool call is split from its result and no assistant turn is split; the turn still in its tool loop with thinking
 * is kept whole in the tail, or summarized whole when it alone is over the tail's share. When the user's latest
 * message falls in the middle, the summary quotes it verbatim.
 *
 * Failures are handled as in every ctx LLM strategy (spec 002 Proposal 6): the request stays within 80% of the
 * summarizer's window; a failed, empty or inflated summary falls back to a mechanical one with a `fallback` warning
 * (or a `summarizer-failed` no-op with `fallbackOnFailure: false`); an abort is a no-op.
 *
 * @param settings - Validated once, here.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings, e.g. `headShare: 2`.
 * @example
 * ```ts
 * const orchestrator = createCompressionOrchestrator({
 *   history,
 *   strategies: [createMiddleOutStrategy({ tailShare: 0.4 })],
 *   contextLimit: 200_000,
 *   summarizer: createAiSdkSummarizer({ model }),
 * });
 * ```
 */
export function createMiddleOutStrategy(settings?: MiddleOutSettingsInput): CompressionStrategy<MiddleOutSettings> {
  const resolved = parseStrategySettings(middleOutSettingsSchema, settings, name);

  return {
    specificationVersion: 'v1',
    name,
    description:
      'Keeps the head (byte-identical, prompt cache survives) and the newest turns; the middle becomes one structured summary (LLM), mechanical fallback when the model fails.',
    requiresLLM: true,
    trigger: { mode: 'threshold', defaultThreshold: DEFAULT_COMPRESSION_THRESHOLD },
    capabilities: { lossless: false, estimatedSpeed: 'slow' },
    settingsSchema: middleOutSettingsSchema,
    settings: resolved,

    async compress(context): Promise<CompressionResult> {
      const start = checkCompressionPreconditions(context);
      if (start.kind === 'no-op') return start.result;
      const { tokensBefore, target } = start;
      if (context.summarizer === undefined) return missingSummarizerResult(name);
      const { history, tokenCounter: counter } = context;
      const { headEnd, tailStart, noValidHead } = findMiddle(history, counter, {
        headTokens: Math.floor(target * resolved.headShare),
        tailTokens: Math.floor(target * resolved.tailShare),
      });
      if (tailStart <= headEnd) {
        return {
          type: 'no-op',
          reason: 'too-few-compressible',
          message:
            noValidHead === true
              ? `no middle to summarize: the turn still in its tool loop is over the tail's share, and every head would leave the request ending in a tool loop that opened without thinking, which Anthropic rejects with thinking on`
              : `no middle to summarize: the head through the first user message and the newest turn cover all ${history.length} entries`,
        };
      }
      const head = history.slice(0, headEnd);
      const middle = history.slice(headEnd, tailStart);
      const tail = history.slice(tailStart);
      const maxSummaryTokens = resolved.maxSummaryTokens ?? Math.max(16, Math.min(8_192, Math.floor(getHistoryTokenTarget(context.budget) / 5)));
      const summary = await requestSummary({
        context,
        entries: middle,
        instructions: buildSummaryInstructions({
          ...(context.activeTodos === undefined ? {} : { activeTodos: context.activeTodos }),
          // FR-PR-003: the condensing profile's prompt, else this strategy's own, else the built-in one.
          ...customPromptOf(context, resolved),
          maxSummaryTokens,
        }),
        maxSummaryTokens,
        summarizerWindow: resolved.summarizerWindow,
        fallbackOnFailure: resolved.fallbackOnFailure,
      });
      if (summary.kind !== 'summary') return summaryFailureResult(summary);

      // The user's latest words must survive verbatim: in the tail, or quoted after the summary.
      const latestInMiddle = latestUserTextIndex(history) >= headEnd && latestUserTextIndex(history) < tailStart;
      const latestUserRequest = latestInMiddle ? findLatestUserRequest(history) : undefined;
      const entry = createSummaryEntry(summary.text, {
        generator: name,
        fallback: summary.source === 'fallback',
        ...(latestUserRequest === undefined
          ? {}
          : {
              continuation: {
                latestUserRequest,
                ...(context.activeTodos === undefined ? {} : { activeTodos: context.activeTodos }),
                ...(context.transcriptPath === undefined ? {} : { transcriptPath: context.transcriptPath }),
              },
            }),
      });
      const newHistory = [...head, entry, ...tail];
      const tokensAfter = counter.countEntries(newHistory);
      if (tokensAfter >= tokensBefore) {
        return {
          type: 'no-op',
          reason: 'no-progress',
          message: `the result has ${formatCount(tokensAfter)} tokens, not fewer than the ${formatCount(tokensBefore)} of the history`,
          warnings: summary.warnings,
        };
      }
      const summaryTokens = counter.countEntry(entry);
      const warnings: StrategyWarning[] = [
        ...summary.warnings,
        {
          type: 'lossy',
          message: `summarized the ${middle.length} middle entries (${formatCount(counter.countEntries(middle))} tokens) into ${summary.source === 'fallback' ? 'a mechanical' : 'a'} ${formatCount(summaryTokens)}-token summary; kept the first ${head.length} and the last ${tail.length} entries as they were`,
        },
      ];
      if (tokensAfter > target) {
        warnings.push({
          type: 'target-not-met',
          message: `the result has ${formatCount(tokensAfter)} tokens; the target is ${formatCount(target)} (head ${formatCount(counter.countEntries(head))}, tail ${formatCount(counter.countEntries(tail))})`,
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
          counts: {
            ...summaryCounts({
              entriesSummarized: middle.length,
              summaryTokens,
              fallback: summary.source === 'fallback',
              ...(summary.usage === undefined ? {} : { usage: summary.usage }),
            }),
            headEntriesKept: head.length,
            tailEntriesKept: tail.length,
          },
        },
        warnings,
      };
    },
  };
}
