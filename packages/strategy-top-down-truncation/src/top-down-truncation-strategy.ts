import {
  cutOversizedToolResults,
  DEFAULT_COMPRESSION_THRESHOLD,
  describeToolResultCuts,
  getHistoryTokenTarget,
  markGeneratedEntry,
  parseStrategySettings,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type HistoryEntry,
  type ReductionEstimate,
  type StrategyWarning,
  type ToolResultCut,
} from '@ctx/core';
import { capOversizedToolResults, checkCompressionPreconditions, whereCutOutputIs } from '@ctx/strategy-utils';
import { findTruncationCut, keptStartsWithUser } from './find-truncation-cut.js';
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
 * assistant entry), keeps at least `minEntriesKept` entries, and runs in linear time. When what it must keep is
 * still over the target — a newest tool output larger than the window — it cuts the largest kept tool results to
 * their beginning and end (`cutOversizedToolResults`, on by default).
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

  const findCut = (context: CompressionContext) =>
    findTruncationCut(
      context.history,
      context.tokenCounter,
      getHistoryTokenTarget(context.budget),
      resolved.minEntriesKept,
      // An upper bound for any count of dropped entries, so the cut search stays one pass.
      context.tokenCounter.countEntry(omissionNotice(999_999)),
    );

  /**
   * The whole plan: tool results over half the target cut first (so one giant output does not decide how much of
   * the conversation goes), then the cut, then — when what must be kept is still over the target — the largest kept
   * tool results shortened until it fits.
   */
  const plan = (given: CompressionContext) => {
    const target = getHistoryTokenTarget(given.budget);
    const capped = resolved.cutOversizedToolResults ? capOversizedToolResults(given, target) : { context: given, cuts: [] };
    const { context } = capped;
    const { history, tokenCounter: counter } = context;
    const cut = findCut(context);
    const dropped = cut.kind === 'none' ? 0 : cut.cutIndex;
    let kept = history.slice(dropped);
    const notice = dropped === 0 || keptStartsWithUser(kept, 0) ? undefined : omissionNotice(dropped);
    const resultCuts = new Map<string, ToolResultCut>();
    for (const resultCut of capped.cuts) if (resultCut.entryIndex >= dropped) resultCuts.set(`${resultCut.entryIndex}:${resultCut.callId}`, resultCut);
    const noticeTokens = notice === undefined ? 0 : counter.countEntry(notice);
    if (resolved.cutOversizedToolResults && counter.countEntries(kept) + noticeTokens > target) {
      const shortened = cutOversizedToolResults(kept, { tokenCounter: counter, maxHistoryTokens: target - noticeTokens });
      kept = [...shortened.history];
      for (const resultCut of shortened.cuts) {
        const key = `${resultCut.entryIndex + dropped}:${resultCut.callId}`;
        const earlier = resultCuts.get(key);
        resultCuts.set(key, { ...resultCut, entryIndex: resultCut.entryIndex + dropped, tokensBefore: earlier?.tokensBefore ?? resultCut.tokensBefore });
      }
    }
    const newHistory = notice === undefined ? kept : [notice, ...kept];
    return {
      dropped,
      kept,
      newHistory,
      resultCuts: [...resultCuts.values()].sort((a, b) => a.entryIndex - b.entryIndex),
      tokensAfter: counter.countEntries(newHistory),
    };
  };

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
      const { dropped, kept, newHistory, resultCuts, tokensAfter } = plan(context);
      if (dropped === 0 && resultCuts.length === 0) {
        return Promise.resolve({
          type: 'no-op',
          reason: 'too-few-compressible',
          message: `no safe cut point leaves at least ${resolved.minEntriesKept} entries (${history.length} entries, ${integer.format(total)} tokens, target ${integer.format(target)})${resolved.cutOversizedToolResults ? ', and no tool result is large enough to cut' : ''}`,
        });
      }
      const droppedTokens = total - context.tokenCounter.countEntries(history.slice(dropped));
      const warnings: StrategyWarning[] = [];
      if (dropped > 0) {
        warnings.push({
          type: 'lossy',
          message: `dropped the ${dropped === 1 ? 'oldest entry' : `${dropped} oldest entries`} (${integer.format(droppedTokens)} tokens); they are not retrievable`,
        });
      }
      if (resultCuts.length > 0) {
        warnings.push({
          type: 'lossy',
          message: describeToolResultCuts(resultCuts, whereCutOutputIs(context)),
        });
      }
      if (tokensAfter > target) {
        warnings.push({
          type: 'target-not-met',
          message: `kept ${integer.format(tokensAfter)} tokens, over the target of ${integer.format(target)}: the newest ${kept.length} entries cannot be split safely${resultCuts.length > 0 ? ' and cutting their tool results was not enough' : ''}`,
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
          counts: {
            entriesDropped: dropped,
            tokensDropped: droppedTokens,
            noticesAdded: newHistory.length - kept.length,
            toolResultsCut: resultCuts.length,
          },
        },
        warnings,
      });
    },

    estimateReduction(context): Promise<ReductionEstimate> {
      const tokensBefore = context.tokenCounter.countEntries(context.history);
      const estimatedTokensAfter = tokensBefore <= getHistoryTokenTarget(context.budget) ? tokensBefore : Math.min(tokensBefore, plan(context).tokensAfter);
      return Promise.resolve({ tokensBefore, estimatedTokensAfter });
    },
  };
}
