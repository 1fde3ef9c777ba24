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
  formatCount,
} from '@ctx/core';
import { capOversizedToolResults, checkCompressionPreconditions, whereCutOutputIs } from '@ctx/strategy-utils';
import { findPinnedHeadEnd } from './find-pinned-head-end.js';
import { findTruncationCut, keptStartsWithUser } from './find-truncation-cut.js';
import {
  topDownTruncationSettingsSchema,
  type TopDownTruncationSettings,
  type TopDownTruncationSettingsInput,
} from './top-down-truncation-settings.js';

const name = 'top-down-truncation';

/**
 * Takes the place of the dropped entries when the kept part would start with an assistant turn (providers such as
 * Bedrock, and many clients, require the first message to be the user's), and always between the pinned first user
 * message and the kept part: the model learns that context is gone.
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
 * Like the truncation providers do, it keeps the first user message — an agent's task statement — verbatim
 * (`keepFirstUserMessage`, on by default): the entries from the start through it stay, the oldest entries after
 * them are dropped, and a notice between the two says how many are missing. The kept head counts against the
 * target; when it alone is over the target it is kept anyway and the result says `target-not-met`.
 *
 * What it drops is gone: results carry a `lossy` warning saying how much.
 *
 * @param settings - Validated once, here.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings, e.g. `minEntriesKept: 0`.
 *
 * @example
 * ```ts
 * const strategy = createTopDownTruncationStrategy({ minEntriesKept: 4 });
 * // Spec 000's plain truncation, which drops the task too: createTopDownTruncationStrategy({ keepFirstUserMessage: false })
 * const orchestrator = createCompressionOrchestrator({ history, strategies: [strategy], contextLimit: 200_000 });
 * ```
 */
export function createTopDownTruncationStrategy(
  settings?: TopDownTruncationSettingsInput,
): CompressionStrategy<TopDownTruncationSettings> {
  const resolved = parseStrategySettings(topDownTruncationSettingsSchema, settings, name);

  /**
   * The whole plan: tool results over half the target cut first (so one giant output does not decide how much of
   * the conversation goes), then the cut after the pinned head, then — when what must be kept is still over the
   * target — the largest kept tool results shortened until it fits.
   */
  const plan = (given: CompressionContext) => {
    const target = getHistoryTokenTarget(given.budget);
    const capped = resolved.cutOversizedToolResults ? capOversizedToolResults(given, target) : { context: given, cuts: [] };
    const { context } = capped;
    const { history, tokenCounter: counter } = context;
    const headEnd = resolved.keepFirstUserMessage ? findPinnedHeadEnd(history) : 0;
    const cut = findTruncationCut(history, counter, {
      targetTokens: target,
      minEntriesKept: resolved.minEntriesKept,
      // An upper bound for any count of dropped entries, so the cut search stays one pass.
      noticeTokens: counter.countEntry(omissionNotice(999_999)),
      headEnd,
    });
    // `history[headEnd…cutIndex)` is dropped; with no cut, nothing is.
    const cutIndex = cut.kind === 'none' ? headEnd : cut.cutIndex;
    const dropped = cutIndex - headEnd;
    const tail = history.slice(cutIndex);
    // Between the head and the tail the notice always says what is missing; without a head it is needed only
    // when the tail would open with an assistant turn.
    const notice = dropped === 0 || (headEnd === 0 && keptStartsWithUser(tail, 0)) ? undefined : omissionNotice(dropped);
    // Kept entries as `head + tail` (indices below `headEnd` are the head's), mapped back to the history's indices.
    let body = dropped === 0 ? history : [...history.slice(0, headEnd), ...tail];
    const historyIndex = (bodyIndex: number) => (bodyIndex < headEnd ? bodyIndex : bodyIndex + dropped);
    const resultCuts = new Map<string, ToolResultCut>();
    for (const resultCut of capped.cuts) {
      const index = resultCut.entryIndex;
      if (index < headEnd || index >= cutIndex) resultCuts.set(`${index}:${resultCut.callId}`, resultCut);
    }
    const noticeTokens = notice === undefined ? 0 : counter.countEntry(notice);
    if (resolved.cutOversizedToolResults && counter.countEntries(body) + noticeTokens > target) {
      // Only tool results are cut: the first user message stays verbatim.
      const shortened = cutOversizedToolResults(body, { tokenCounter: counter, maxHistoryTokens: target - noticeTokens });
      body = shortened.history;
      for (const resultCut of shortened.cuts) {
        const entryIndex = historyIndex(resultCut.entryIndex);
        const key = `${entryIndex}:${resultCut.callId}`;
        const earlier = resultCuts.get(key);
        resultCuts.set(key, { ...resultCut, entryIndex, tokensBefore: earlier?.tokensBefore ?? resultCut.tokensBefore });
      }
    }
    const head = body.slice(0, dropped === 0 ? 0 : headEnd);
    const kept = body.slice(head.length);
    const newHistory = notice === undefined ? [...body] : [...head, notice, ...kept];
    return {
      headEnd,
      // The head is kept apart from the rest only when something between them was dropped.
      pinned: head.length,
      cutIndex,
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
      const { headEnd, pinned, cutIndex, dropped, kept, newHistory, resultCuts, tokensAfter } = plan(context);
      if (dropped === 0 && resultCuts.length === 0) {
        return Promise.resolve({
          type: 'no-op',
          reason: 'too-few-compressible',
          message: `no safe cut point leaves at least ${resolved.minEntriesKept} entries${headEnd > 0 ? ` after the first user message` : ''} (${history.length} entries, ${formatCount(total)} tokens, target ${formatCount(target)})${resolved.cutOversizedToolResults ? ', and no tool result is large enough to cut' : ''}`,
        });
      }
      const droppedTokens = context.tokenCounter.countEntries(history.slice(cutIndex - dropped, cutIndex));
      const warnings: StrategyWarning[] = [];
      if (dropped > 0) {
        const what = dropped === 1 ? 'oldest entry' : `${dropped} oldest entries`;
        warnings.push({
          type: 'lossy',
          message: `dropped the ${what}${pinned > 0 ? ' after the first user message, which is kept' : ''} (${formatCount(droppedTokens)} tokens); they are not retrievable`,
        });
      }
      if (resultCuts.length > 0) {
        warnings.push({
          type: 'lossy',
          message: describeToolResultCuts(resultCuts, whereCutOutputIs(context)),
        });
      }
      if (tokensAfter > target) {
        const mustKeep = `${pinned > 0 ? `the first ${pinned === 1 ? 'entry' : `${pinned} entries`} (through the first user message) and ` : ''}the newest ${kept.length} entries`;
        warnings.push({
          type: 'target-not-met',
          message: `kept ${formatCount(tokensAfter)} tokens, over the target of ${formatCount(target)}: ${mustKeep} cannot be split safely${resultCuts.length > 0 ? ' and cutting their tool results was not enough' : ''}`,
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
            entriesPinned: pinned,
            tokensDropped: droppedTokens,
            noticesAdded: newHistory.length - kept.length - pinned,
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
