import {
  cutOversizedToolResults,
  DEFAULT_COMPRESSION_THRESHOLD,
  describeToolResultCuts,
  getHistoryTokenTarget,
  parseStrategySettings,
  type CutOversizedToolResultsResult,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type HistoryEntry,
  type ReductionEstimate,
  type StrategyWarning,
  type ToolResultCut,
  formatCount,
} from '@ctx/core';
import {
  capOversizedToolResults,
  checkCompressionPreconditions,
  findFirstUserMessage,
  whereCutOutputIs,
} from '@ctx/strategy-utils';
import { createExcerptSummaryBuilder, type ExcerptCache, type ExcerptSummary } from './excerpt-summary.js';
import { planSlidingWindow, type SlidingWindowPlan } from './plan-sliding-window.js';
import {
  slidingWindowSettingsSchema,
  type SlidingWindowSettings,
  type SlidingWindowSettingsInput,
} from './sliding-window-settings.js';
import { summarizeDroppedEntries, type DroppedEntriesSummary } from './summarize-dropped-entries.js';
import { createSummaryEntry, slidingWindowName } from './summary-entry.js';

function entries(count: number): string {
  return count === 1 ? '1 entry' : `${formatCount(count)} entries`;
}

/** Cuts of the same results in two passes, as one list: each result's size before the first and after the last. */
function mergeCuts(first: readonly ToolResultCut[], second: readonly ToolResultCut[]): ToolResultCut[] {
  const byEntry = new Map(first.map((resultCut) => [`${resultCut.entryIndex}:${resultCut.callId}`, resultCut]));
  for (const resultCut of second) {
    const key = `${resultCut.entryIndex}:${resultCut.callId}`;
    const earlier = byEntry.get(key);
    byEntry.set(key, earlier === undefined ? resultCut : { ...resultCut, tokensBefore: earlier.tokensBefore });
  }
  return [...byEntry.values()].sort((a, b) => a.entryIndex - b.entryIndex);
}

/** The result when no split is possible but cutting oversized tool results in place shrinks the history. */
function cutResultsOnly(
  context: CompressionContext,
  shortened: CutOversizedToolResultsResult,
  targetTokens: number,
): CompressionResult {
  const warnings: StrategyWarning[] = [{ type: 'lossy', message: describeToolResultCuts(shortened.cuts, whereCutOutputIs(context)) }];
  if (!shortened.fits) {
    warnings.push({
      type: 'target-not-met',
      message: `kept ${formatCount(shortened.tokensAfter)} tokens, over the target of ${formatCount(targetTokens)}: no pair-safe split drops an entry, and cutting the tool results was not enough`,
    });
  }
  return {
    type: 'applied',
    newHistory: shortened.history,
    metadata: {
      originalMessageCount: context.history.length,
      compressedMessageCount: shortened.history.length,
      strategyUsed: slidingWindowName,
      llmCallMade: false,
      counts: { entriesDropped: 0, toolResultsCut: shortened.cuts.length },
    },
    warnings,
  };
}

interface Planning {
  readonly plan: SlidingWindowPlan;
  /** The excerpt summary of `history[0…splitIndex)`, without the first user message when the split pins it. */
  readonly excerptsFor: (splitIndex: number) => ExcerptSummary;
  readonly summaryCap: number;
  /** The first user message's index; the chosen split pins it when `plan.chosen.pinned`. */
  readonly firstUserIndex: number | undefined;
  /** Why the first user message, which the chosen split drops, was not pinned. */
  readonly pinWarning?: string;
}

/**
 * Creates the sliding-window strategy (spec 002, contextguard's sliding window): when the context passes the
 * threshold, keep the newest entries that fit the target and put one summary entry in place of everything older.
 *
 * - The split never separates a tool call from its result: it walks back to a clean text boundary, else forward to
 *   the seam between two complete call/result pairs, so pure-tool agent runs still compact (spec 002 Proposal 1).
 *   At least one entry is always compacted and the newest is always kept; a `floor-hit` warning says when the floor
 *   decided.
 * - When the result does not fit, it retries with a progressively smaller window (Proposal 2), and says
 *   `target-not-met` when even the smallest pair-safe window is too large.
 * - Every block type counts toward the window (Proposal 4), through the context's cached token counter.
 * - The summary is the deterministic excerpt summary of §6.3 (the first 200 characters of each dropped message,
 *   newest excerpts first within `summaryShare` of the target, the todo list after them) unless
 *   `summary: 'summarizer'`, which hands the dropped entries to `context.summarizer` and falls back to the excerpts
 *   when there is none or it fails. Only that setting makes the strategy call a model, and only then does it declare
 *   `requiresLLM: true` (the conformance kit's `llm-honesty` check holds the default instance to never calling one).
 *
 * - The first user message (an agent's task statement) is kept by default, before the summary, when the window would
 *   drop it: its tokens count against the target, and when it cannot fit (too large alone, nothing else to drop, or
 *   it would cost the target) it is summarized with the rest and a `fallback` warning says why. This deviates from
 *   spec 002, whose window forgets the task on agent runs; `keepFirstUserMessage: false` restores the spec.
 *
 * - When what it must keep is still over the target — a newest tool output larger than the window — it cuts the
 *   largest kept tool results to their beginning and end (`cutOversizedToolResults`, on by default).
 *
 * What it drops is gone apart from the summary: results carry a `lossy` warning saying how much.
 *
 * @param settings - Validated once, here.
 * @returns The strategy, registered as `sliding-window`.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings, e.g. `recentKeep: 0`.
 *
 * @example
 * ```ts
 * const strategy = createSlidingWindowStrategy();
 * const orchestrator = createCompressionOrchestrator({ history, strategies: [strategy], contextLimit: 200_000 });
 *
 * // With the application's summarizer for the dropped part:
 * const summarizing = createSlidingWindowStrategy({ summary: 'summarizer' });
 *
 * // Spec 002's plain window, without keeping the first user message:
 * const plain = createSlidingWindowStrategy({ keepFirstUserMessage: false });
 * ```
 */
export function createSlidingWindowStrategy(
  settings?: SlidingWindowSettingsInput,
): CompressionStrategy<SlidingWindowSettings> {
  const resolved = parseStrategySettings(slidingWindowSettingsSchema, settings, slidingWindowName);
  const usesSummarizer = resolved.summary === 'summarizer';
  // Excerpts of the entries earlier calls dropped: an agent loop drops the same old entries again, turn after turn.
  // Kept from the second plan on, so a strategy used once (`ctx compare`, a one-shot run) does not pay for keeping.
  const excerptCache: ExcerptCache = new WeakMap();
  let plans = 0;

  const planFor = (context: CompressionContext, targetTokens: number): Planning => {
    const { history, tokenCounter: counter } = context;
    const summaryCap = Math.floor(targetTokens * resolved.summaryShare);
    const excerpts = createExcerptSummaryBuilder(history, {
      counter,
      excerptLength: resolved.excerptLength,
      ...(context.activeTodos === undefined ? {} : { todos: context.activeTodos }),
      ...(++plans > 1 ? { cache: excerptCache } : {}),
    });
    // A model writes its summary after planning: reserve the most it may take, plus the markers around it.
    const modelReserve = summaryCap + counter.countEntry(createSummaryEntry(''));
    const summaryReserve = usesSummarizer ? modelReserve : summaryCap;
    const firstUserIndex = resolved.keepFirstUserMessage ? findFirstUserMessage(history) : undefined;
    // The excerpts of what a split drops; a pinned entry is kept as it is, so it gets no excerpt.
    const excerptsFor = (splitIndex: number, pinnedIndex: number | undefined) =>
      excerpts.build(splitIndex, summaryCap, pinnedIndex !== undefined && splitIndex > pinnedIndex ? { exclude: pinnedIndex } : {});
    const planWith = (pinned?: { readonly index: number; readonly tokens: number }) =>
      planSlidingWindow(history, {
        counter,
        targetTokens,
        ...(resolved.recentKeep === undefined ? {} : { recentKeep: resolved.recentKeep }),
        minRecentKeep: resolved.minRecentKeep,
        maxAttempts: resolved.maxAttempts,
        summaryReserve,
        ...(pinned === undefined ? {} : { pinned }),
        summaryFor: usesSummarizer
          ? () => ({ tokens: modelReserve })
          : (splitIndex) => {
              const summary = excerptsFor(splitIndex, pinned?.index);
              return { tokens: summary.tokens, entry: summary.entry, omitted: summary.omitted };
            },
      });
    const pinnedExcerpts = (splitIndex: number) => excerptsFor(splitIndex, firstUserIndex);
    const unpinnedExcerpts = (splitIndex: number) => excerptsFor(splitIndex, undefined);
    if (firstUserIndex === undefined) return { plan: planWith(), excerptsFor: unpinnedExcerpts, summaryCap, firstUserIndex };

    const pinned = { index: firstUserIndex, tokens: counter.countEntry(history[firstUserIndex] as HistoryEntry) };
    let reason: string;
    let plan: SlidingWindowPlan;
    if (pinned.tokens > targetTokens - summaryReserve) {
      reason = `it alone takes ${formatCount(pinned.tokens)} tokens, more than the target of ${formatCount(targetTokens)} minus the ${formatCount(summaryReserve)} kept for the summary`;
      plan = planWith();
    } else {
      const pinnedPlan = planWith(pinned);
      if (pinnedPlan.fits) return { plan: pinnedPlan, excerptsFor: pinnedExcerpts, summaryCap, firstUserIndex };
      plan = planWith();
      const pinnedChosen = pinnedPlan.chosen;
      const unpinnedChosen = plan.chosen;
      // When no window fits either way the target is lost regardless; the pin may still add up to what the
      // summary may take (a task statement beside a huge newest tool result), not more.
      const extra = pinnedChosen === undefined || unpinnedChosen === undefined ? 0 : pinnedChosen.totalTokens - unpinnedChosen.totalTokens;
      if (pinnedChosen !== undefined && !plan.fits && extra <= summaryReserve) {
        return { plan: pinnedPlan, excerptsFor: pinnedExcerpts, summaryCap, firstUserIndex };
      }
      reason =
        pinnedChosen === undefined
          ? 'no pair-safe split would compact any other entry'
          : plan.fits
            ? `with its ${formatCount(pinned.tokens)} tokens no pair-safe window fits the target of ${formatCount(targetTokens)}; without them one does`
            : `no pair-safe window fits the target of ${formatCount(targetTokens)} either way, and it would add ${formatCount(extra)} tokens, more than the ${formatCount(summaryReserve)} kept for the summary`;
    }
    const dropsIt = plan.chosen !== undefined && plan.chosen.split.index > firstUserIndex;
    return {
      plan,
      // The unpinned plan summarizes the first user message with the rest.
      excerptsFor: unpinnedExcerpts,
      summaryCap,
      firstUserIndex,
      ...(dropsIt
        ? { pinWarning: `the first user message (entry ${firstUserIndex}) was not kept: ${reason}; it is summarized with the dropped entries` }
        : {}),
    };
  };

  return {
    specificationVersion: 'v1',
    name: slidingWindowName,
    description:
      'Keeps the newest entries that fit and summarizes the rest; splits only between complete tool call/result pairs.',
    requiresLLM: usesSummarizer,
    trigger: { mode: 'threshold', defaultThreshold: DEFAULT_COMPRESSION_THRESHOLD },
    capabilities: { lossless: false, llmSummarization: usesSummarizer, estimatedSpeed: usesSummarizer ? 'slow' : 'fast' },
    settingsSchema: slidingWindowSettingsSchema,
    settings: resolved,

    async compress(given): Promise<CompressionResult> {
      const start = checkCompressionPreconditions(given);
      if (start.kind === 'no-op') return start.result;
      const { tokensBefore, target: targetTokens } = start;
      // A giant tool result (even the newest) is cut to half the target before planning, so it can neither make the
      // target unreachable nor crowd the rest of the conversation out of the window.
      const capped = resolved.cutOversizedToolResults ? capOversizedToolResults(given, targetTokens) : { context: given, cuts: [] };
      const { context } = capped;
      const { history, tokenCounter: counter, signal } = context;
      // A function, so the check after awaiting the summarizer reads the signal's state then.
      const isAborted = () => signal?.aborted === true;
      const { plan, excerptsFor, summaryCap, firstUserIndex, pinWarning } = planFor(context, targetTokens);
      const chosen = plan.chosen;
      if (chosen === undefined) {
        const shortened = resolved.cutOversizedToolResults
          ? cutOversizedToolResults(history, { tokenCounter: counter, maxHistoryTokens: targetTokens })
          : undefined;
        if (shortened !== undefined && capped.cuts.length + shortened.cuts.length > 0) {
          return cutResultsOnly(context, { ...shortened, cuts: mergeCuts(capped.cuts, shortened.cuts) }, targetTokens);
        }
        return {
          type: 'no-op',
          reason: 'too-few-compressible',
          message: `no split between complete tool call/result pairs drops an entry and keeps the newest one (${entries(history.length)}, ${formatCount(tokensBefore)} tokens, target ${formatCount(targetTokens)})${resolved.cutOversizedToolResults ? ', and no tool result is large enough to cut' : ''}`,
        };
      }

      const splitIndex = chosen.split.index;
      const pinnedEntry = chosen.pinned && firstUserIndex !== undefined ? history[firstUserIndex] : undefined;
      const kept = history.slice(splitIndex);
      // The entries the summary replaces: everything before the split but the pinned first user message.
      const dropped =
        pinnedEntry === undefined ? history.slice(0, splitIndex) : history.slice(0, splitIndex).filter((entry) => entry !== pinnedEntry);
      const warnings: StrategyWarning[] = [];
      let llmCallMade = false;
      let summary: { entry: HistoryEntry; origin: string; omitted: number } | undefined;

      if (usesSummarizer) {
        const summarizer = context.summarizer;
        if (summarizer === undefined) {
          warnings.push({ type: 'fallback', message: 'no summarizer was given; the dropped entries are summarized as excerpts' });
        } else {
          llmCallMade = true;
          let outcome: DroppedEntriesSummary;
          try {
            outcome = await summarizeDroppedEntries({
              summarizer,
              entries: dropped,
              counter,
              contextLimit: context.budget.contextLimit,
              maxOutputTokens: Math.max(1, summaryCap),
              ...(context.activeTodos === undefined ? {} : { todos: context.activeTodos }),
              ...(signal === undefined ? {} : { signal }),
            });
          } catch (error) {
            if (isAborted()) return { type: 'no-op', reason: 'aborted', message: 'aborted while summarizing' };
            throw error;
          }
          // A summarizer that ignores the signal may still answer after the caller gave up.
          if (isAborted()) return { type: 'no-op', reason: 'aborted', message: 'aborted while summarizing' };
          if (outcome.outcome === 'failed') {
            warnings.push({ type: 'fallback', message: `${outcome.message}; the dropped entries are summarized as excerpts` });
          } else if (counter.countEntry(createSummaryEntry(outcome.text)) + chosen.keptTokens >= tokensBefore) {
            warnings.push({
              type: 'fallback',
              message: `the summary of "${summarizer.name}" would not have saved tokens; the dropped entries are summarized as excerpts`,
            });
          } else {
            summary = {
              entry: createSummaryEntry(outcome.text),
              origin: `the summarizer "${summarizer.name}" summarized ${entries(outcome.entriesSummarized)}`,
              omitted: 0,
            };
          }
        }
      }
      if (summary === undefined) {
        const built = chosen.summary.entry === undefined ? excerptsFor(splitIndex) : chosen.summary;
        summary = {
          entry: built.entry as HistoryEntry,
          origin: `the first ${resolved.excerptLength} characters of each dropped message`,
          omitted: built.omitted ?? 0,
        };
      }

      const keptTokens = chosen.keptTokens;
      // Tokens of what the split dropped, in the history as planned (after any cut of giant results).
      const droppedTokens = counter.countEntries(history) - keptTokens;
      const summaryTokens = counter.countEntry(summary.entry);
      let tokensAfter = keptTokens + summaryTokens;
      let recent = kept;
      // The cuts made before planning that the window kept (the others were dropped with their entries anyway).
      let resultCuts: readonly ToolResultCut[] = capped.cuts
        .filter((resultCut) => resultCut.entryIndex >= splitIndex)
        .map((resultCut) => ({ ...resultCut, entryIndex: resultCut.entryIndex - splitIndex }));
      if (resolved.cutOversizedToolResults && tokensAfter > targetTokens) {
        // What the window must keep is still too large (a newest tool output larger than the window): cut the
        // largest kept tool results to their beginning and end.
        const recentTokens = counter.countEntries(kept);
        const shortened = cutOversizedToolResults(kept, {
          tokenCounter: counter,
          maxHistoryTokens: targetTokens - (tokensAfter - recentTokens),
        });
        if (shortened.cuts.length > 0) {
          recent = [...shortened.history];
          resultCuts = mergeCuts(resultCuts, shortened.cuts);
          tokensAfter += shortened.tokensAfter - recentTokens;
        }
      }
      const newHistory = pinnedEntry === undefined ? [summary.entry, ...recent] : [pinnedEntry, summary.entry, ...recent];
      if (tokensAfter >= tokensBefore) {
        return {
          type: 'no-op',
          reason: 'too-few-compressible',
          message: `dropping the oldest ${entries(dropped.length)} would not save tokens: their summary takes ${formatCount(summaryTokens)}`,
          warnings,
        };
      }

      warnings.unshift({
        type: 'lossy',
        message: `dropped the oldest ${entries(dropped.length)} (${formatCount(droppedTokens)} tokens) and kept ${pinnedEntry === undefined ? '' : `the first user message (entry ${firstUserIndex ?? 0}) and `}the newest ${entries(kept.length)}; the summary keeps ${summary.origin}${summary.omitted > 0 ? ` (${formatCount(summary.omitted)} left out to fit ${formatCount(summaryCap)} tokens)` : ''}`,
      });
      if (resultCuts.length > 0) {
        warnings.push({
          type: 'lossy',
          message: describeToolResultCuts(
            resultCuts.map((resultCut) => ({ ...resultCut, entryIndex: resultCut.entryIndex + splitIndex })),
            whereCutOutputIs(context),
          ),
        });
      }
      if (pinWarning !== undefined) warnings.push({ type: 'fallback', message: pinWarning });
      if (plan.attempts.some((attempt) => attempt.split.floorHit)) {
        warnings.push({
          type: 'floor-hit',
          message: `the recent window (${entries(chosen.recentKeep)}) covered the whole history; at least the oldest entry is compacted (split floor at index 1)`,
        });
      }
      if (tokensAfter > targetTokens) {
        warnings.push({
          type: 'target-not-met',
          message: `kept ${formatCount(tokensAfter)} tokens, over the target of ${formatCount(targetTokens)}, after ${plan.attempts.length} attempt${plan.attempts.length === 1 ? '' : 's'}: ${plan.fits ? 'the summary came out longer than planned' : `the newest ${entries(kept.length)} cannot be split further without separating a tool call from its result`}${resultCuts.length > 0 ? ' and cutting their tool results was not enough' : ''}${pinnedEntry === undefined ? '' : ` (the first user message takes ${formatCount(counter.countEntry(pinnedEntry))})`}`,
        });
      }
      return {
        type: 'applied',
        newHistory,
        metadata: {
          originalMessageCount: history.length,
          compressedMessageCount: newHistory.length,
          strategyUsed: slidingWindowName,
          llmCallMade,
          counts: {
            entriesDropped: dropped.length,
            entriesKept: kept.length + (pinnedEntry === undefined ? 0 : 1),
            entriesPinned: pinnedEntry === undefined ? 0 : 1,
            tokensDropped: droppedTokens,
            summaryTokens,
            attempts: plan.attempts.length,
            recentKeep: chosen.recentKeep,
            toolResultsCut: resultCuts.length,
          },
        },
        warnings,
      };
    },

    estimateReduction(context): Promise<ReductionEstimate> {
      const tokensBefore = context.tokenCounter.countEntries(context.history);
      const targetTokens = getHistoryTokenTarget(context.budget);
      const planned = resolved.cutOversizedToolResults ? capOversizedToolResults(context, targetTokens).context : context;
      const chosen =
        context.history.length === 0 || tokensBefore <= targetTokens ? undefined : planFor(planned, targetTokens).plan.chosen;
      return Promise.resolve({
        tokensBefore,
        estimatedTokensAfter: chosen === undefined ? tokensBefore : Math.min(tokensBefore, chosen.totalTokens),
      });
    },
  };
}
