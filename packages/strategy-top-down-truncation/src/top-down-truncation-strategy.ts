import {
  DEFAULT_COMPRESSION_THRESHOLD,
  getHistoryTokenTarget,
  markGeneratedEntry,
  parseStrategySettings,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type HistoryEntry,
  type ReductionEstimate,
  type StrategyWarning,
} from '@ctx/core';
import { checkCompressionPreconditions } from '@ctx/strategy-utils';
import { findTruncationCut } from './find-truncation-cut.js';
import {
  topDownTruncationSettingsSchema,
  type TopDownTruncationSettings,
  type TopDownTruncationSettingsInput,
} from './top-down-truncation-settings.js';

const name = 'top-down-truncation';
const integer = new Intl.NumberFormat('en-US');

/**
 * Takes the place of the dropped entries when the kept part would start with an assistant turn: providers such as
 * Bedrock (and many clients) require the first message to be the user's, and the model learns that context is gone.
 */
function omissionNotice(droppedEntries: number): HistoryEntry {
  return markGeneratedEntry(
    {
      speaker: 'human',
      blocks: [
        {
          type: 'text',
          text: `[${droppedEntries} earlier conversation entries were removed to fit the context window.]`,
        },
      ],
    },
    name,
  );
}

/**
 * Creates the top-down truncation strategy (spec 000 `TopDownTruncationStrategy`): when the context passes the
 * threshold, drop the oldest entries until the history fits `threshold × contextLimit × 0.6` minus the system and
 * tool tokens. It never calls a model, never splits a tool call from its response (it only cuts before a human or
 * assistant entry), keeps at least `minEntriesKept` entries, and runs in linear time.
 *
 * What it drops is gone: results carry a `lossy` warning saying how much.
 *
 * @param settings - Validated once, here.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings, e.g. `minEntriesKept: 0`.
 *
 * @example
 * ```ts
 * const strategy = createTopDownTruncationStrategy({ minEntriesKept: 4 });
 * const orchestrator = createCompressionOrchestrator({ history, strategies: [strategy], contextLimit: 200_000 });
 * ```
 */
export function createTopDownTruncationStrategy(
  settings?: TopDownTruncationSettingsInput,
): CompressionStrategy<TopDownTruncationSettings> {
  const resolved = parseStrategySettings(topDownTruncationSettingsSchema, settings, name);

  const plan = (context: CompressionContext) =>
    findTruncationCut(
      context.history,
      context.tokenCounter,
      getHistoryTokenTarget(context.budget),
      resolved.minEntriesKept,
      // An upper bound for any count of dropped entries, so the cut search stays one pass.
      context.tokenCounter.countEntry(omissionNotice(999_999)),
    );

  return {
    specificationVersion: 'v1',
    name,
    description: 'Drops the oldest entries until the history fits the target; never splits a tool call from its result.',
    requiresLLM: false,
    trigger: { mode: 'threshold', defaultThreshold: DEFAULT_COMPRESSION_THRESHOLD },
    capabilities: { lossless: false, estimatedSpeed: 'fast' },
    settingsSchema: topDownTruncationSettingsSchema,
    settings: resolved,

    compress(context): Promise<CompressionResult> {
      const { history } = context;
      const start = checkCompressionPreconditions(context);
      if (start.kind === 'no-op') return Promise.resolve(start.result);
      const { tokensBefore: total, target } = start;
      const cut = plan(context);
      if (cut.kind === 'none') {
        return Promise.resolve({
          type: 'no-op',
          reason: 'too-few-compressible',
          message: `no safe cut point leaves at least ${resolved.minEntriesKept} entries (${history.length} entries, ${integer.format(total)} tokens, target ${integer.format(target)})`,
        });
      }
      const kept = history.slice(cut.cutIndex);
      const newHistory = kept[0]?.speaker === 'human' ? kept : [omissionNotice(cut.cutIndex), ...kept];
      const droppedTokens = total - context.tokenCounter.countEntries(kept);
      const warnings: StrategyWarning[] = [
        {
          type: 'lossy',
          message: `dropped the ${cut.cutIndex === 1 ? 'oldest entry' : `${cut.cutIndex} oldest entries`} (${integer.format(droppedTokens)} tokens); they are not retrievable`,
        },
      ];
      if (cut.kind === 'best-effort') {
        warnings.push({
          type: 'target-not-met',
          message: `kept ${integer.format(cut.keptTokens)} tokens, over the target of ${integer.format(target)}: the newest ${history.length - cut.cutIndex} entries cannot be split safely`,
        });
      }
      return Promise.resolve({
        type: 'applied',
        newHistory,
        metadata: {
          originalMessageCount: history.length,
          compressedMessageCount: newHistory.length,
          strategyUsed: name,
          llmCallMade: false,
          counts: { entriesDropped: cut.cutIndex, tokensDropped: droppedTokens, noticesAdded: newHistory.length - kept.length },
        },
        warnings,
      });
    },

    estimateReduction(context): Promise<ReductionEstimate> {
      const tokensBefore = context.tokenCounter.countEntries(context.history);
      const cut = tokensBefore <= getHistoryTokenTarget(context.budget) ? undefined : plan(context);
      return Promise.resolve({
        tokensBefore,
        estimatedTokensAfter: cut === undefined ? tokensBefore : cut.keptTokens,
      });
    },
  };
}
