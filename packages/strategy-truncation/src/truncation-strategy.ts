import {
  DEFAULT_COMPRESSION_THRESHOLD,
  describeToolResultCuts,
  getHistoryTokenTarget,
  parseStrategySettings,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type ReductionEstimate,
  type StrategyWarning,
  formatCount,
} from '@ctx/core';
import { checkCompressionPreconditions, whereCutOutputIs } from '@ctx/strategy-utils';
import type { TruncationCounts } from './plan-truncation.js';
import { planWithinBudget, type BudgetedTruncationPlan } from './plan-within-budget.js';
import type { ShorteningCache } from './shortening-cache.js';
import {
  truncationSettingsSchema,
  type TruncationSettings,
  type TruncationSettingsInput,
} from './truncation-settings.js';

const name = 'truncation';

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

/** "shortened 12 tool results, 3 tool calls' parameters; dropped 4 thinking blocks", for the lossy warning. */
function describeOperations(counts: TruncationCounts): string {
  const shortened = [
    [counts.toolResultsTruncated + counts.toolResultsSuppressed, 'tool result'],
    [counts.toolParametersTruncated + counts.toolParametersSuppressed, "tool call's parameters", "tool calls' parameters"],
    [counts.messageTextsTruncated + counts.messageTextsSuppressed, 'message text'],
  ] as const;
  const parts = shortened
    .filter(([count]) => count > 0)
    .map(([count, singular, pluralForm]) => plural(count, singular, pluralForm));
  const done = parts.length === 0 ? [] : [`shortened ${parts.join(', ')}`];
  if (counts.thinkingBlocksDropped > 0) done.push(`dropped ${plural(counts.thinkingBlocksDropped, 'thinking block')}`);
  return done.join('; ');
}

/**
 * Creates the truncation strategy (spec 004 FR-TR, the "truncation provider"): fast, mechanical and deterministic.
 * When the context passes the threshold it keeps the first message and the `preserveRecentCount` newest messages as
 * they are and, in the old zone between them, shortens what is over its limits: tool results to their first
 * `maxToolResultLines` lines, tool-call parameter strings to `maxToolParamChars` characters (`truncate` mode, with a
 * `⟨ … N more lines truncated ⟩` marker), or replaces them with `⟨ Content suppressed ⟩` (`suppress` mode), per
 * content type. User and assistant text and error results are kept by default; old thinking is dropped whole (the
 * thinking of the turn still in its tool loop stays). When a tool output is larger than the budget — a giant newest
 * result — it is cut to its beginning and end so the history fits (`cutOversizedToolResults`, on by default). No
 * model calls; linear time.
 *
 * What it cuts is gone: results carry a `lossy` warning saying how much.
 *
 * @param settings - Validated once, here.
 * @returns The strategy, registered as `truncation`.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings, e.g. `maxToolResultLines: 0`.
 *
 * @example
 * ```ts
 * const strategy = createTruncationStrategy({
 *   preserveRecentCount: 8,
 *   maxToolResultLines: 10,
 *   contentModes: { toolParameters: 'suppress' },
 * });
 * const orchestrator = createCompressionOrchestrator({ history, strategies: [strategy], contextLimit: 200_000 });
 * ```
 */
export function createTruncationStrategy(settings?: TruncationSettingsInput): CompressionStrategy<TruncationSettings> {
  const resolved = parseStrategySettings(truncationSettingsSchema, settings, name);
  // In an agent loop each call sees the last one's history plus a few entries: what was shortened then is reused.
  // Kept from the second plan on, so a strategy used once (`ctx compare`, a one-shot run) does not pay for keeping.
  const cache: ShorteningCache = new WeakMap();
  let plans = 0;

  const plan = (context: CompressionContext): BudgetedTruncationPlan =>
    planWithinBudget(context.history, {
      settings: resolved,
      tokenCounter: context.tokenCounter,
      targetTokens: getHistoryTokenTarget(context.budget),
      ...(++plans > 1 ? { cache } : {}),
    });

  return {
    specificationVersion: 'v1',
    name,
    description:
      'Keeps the first and the newest messages; in between, truncates or suppresses tool results and parameters over their limits. Mechanical, no model calls.',
    requiresLLM: false,
    trigger: { mode: 'threshold', defaultThreshold: DEFAULT_COMPRESSION_THRESHOLD },
    capabilities: {
      lossless: false,
      estimatedSpeed: 'fast',
      rewritesUserText: !resolved.preserveUserMessages && resolved.contentModes.messageText !== 'keep',
    },
    settingsSchema: truncationSettingsSchema,
    settings: resolved,

    compress(context): Promise<CompressionResult> {
      const { history } = context;
      const start = checkCompressionPreconditions(context);
      if (start.kind === 'no-op') return Promise.resolve(start.result);
      const { target } = start;
      const result = plan(context);
      const { counts, zones } = result;
      if (result.tokensAfter >= result.tokensBefore) {
        const oldEntries = zones.oldEnd - zones.oldStart;
        return Promise.resolve({
          type: 'no-op',
          reason: 'too-few-compressible',
          message:
            oldEntries === 0
              ? `the first message and the ${plural(resolved.preserveRecentCount, 'newest message')} cover all ${plural(history.length, 'entry', 'entries')}`
              : `nothing in the ${plural(oldEntries, 'old entry', 'old entries')} is over its limits (or every candidate is preserved)`,
        });
      }
      const warnings: StrategyWarning[] = [];
      const operations = describeOperations(counts);
      if (operations !== '') {
        warnings.push({
          type: 'lossy',
          message: `${operations} in entries ${zones.oldStart}–${(result.stoppedAt ?? zones.oldEnd) - 1} (${formatCount(counts.tokensSaved - result.cutTokensSaved)} tokens); the cut content is not retrievable`,
        });
      }
      if (result.resultCuts.length > 0) {
        warnings.push({ type: 'lossy', message: describeToolResultCuts(result.resultCuts, whereCutOutputIs(context)) });
      }
      if (result.tokensAfter > target) {
        warnings.push({
          type: 'target-not-met',
          message: `kept ${formatCount(result.tokensAfter)} tokens, over the target of ${formatCount(target)}: the first and the ${plural(resolved.preserveRecentCount, 'newest message')} and the preserved content are larger${result.resultCuts.length > 0 ? ', even with their largest tool results cut' : ''}`,
        });
      }
      return Promise.resolve({
        type: 'applied',
        newHistory: result.history,
        metadata: {
          originalMessageCount: history.length,
          compressedMessageCount: result.history.length,
          strategyUsed: name,
          llmCallMade: false,
          counts: { ...counts },
        },
        warnings,
      });
    },

    estimateReduction(context): Promise<ReductionEstimate> {
      const tokensBefore = context.tokenCounter.countEntries(context.history);
      if (tokensBefore <= getHistoryTokenTarget(context.budget)) {
        return Promise.resolve({ tokensBefore, estimatedTokensAfter: tokensBefore });
      }
      return Promise.resolve({ tokensBefore, estimatedTokensAfter: plan(context).tokensAfter });
    },
  };
}
