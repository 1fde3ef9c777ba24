import { estimateStrategyCost } from '../cost/estimate-strategy-cost.js';
import { weighCompaction, type CompactionEconomics } from '../cost/weigh-compaction.js';
import { firstChangedIndex } from '../cost/first-changed-index.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { HistoryService } from '../history/history-service.js';
import type { CompressionContext } from '../strategy/compression-context.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import type { CostModel } from '../strategy/cost-model.js';
import type { DensityResult } from '../strategy/density-result.js';

/** Options of the orchestrator's cache-aware planning. */
export interface CachePlanningOptions {
  /**
   * Model calls a compaction's saving is counted over: the calls the conversation is expected to make with the
   * smaller request. Longer horizons compact more readily. `auto` expects a conversation to go on for as many calls
   * as it has made so far (at least `minimumHorizonTurns`): a long session is likely to run long, and a removed token
   * is saved on every call it runs.
   * @default 'auto'
   */
  readonly horizonTurns?: number | 'auto';
  /**
   * The shortest horizon `auto` uses.
   * @default 10
   */
  readonly minimumHorizonTurns?: number;
}

/** What the planner prices with, read when it weighs (profiles can change between turns). */
export interface CachePlannerSources {
  readonly history: HistoryService;
  /** The horizon in effect now (it grows with the conversation under `auto`). */
  readonly horizonTurns: () => number;
  /** The conversation's model: the one whose prompt cache a compaction rewrites. */
  readonly conversationCostModel: () => CostModel | undefined;
  /** The summarizer's model. */
  readonly condensingCostModel: () => CostModel | undefined;
  /** Output tokens per input token the summarizer produced so far. */
  readonly outputRatio: () => number | undefined;
  /** Tokens at the start of the request as it stands that the last request sent (the provider's cached prefix). */
  readonly cachedTokens: () => number;
}

/** Weighs density results, compression results and LLM strategies before they run (see `weighCompaction`). */
export interface CachePlanner {
  /** Weighs a density result on the raw history it was computed on. */
  readonly density: (result: DensityResult, raw: readonly HistoryEntry[]) => CompactionEconomics | undefined;
  /** Weighs an LLM strategy before it runs, from a dry run with a stand-in summarizer. */
  readonly before: (strategy: CompressionStrategy, context: CompressionContext) => Promise<CompactionEconomics | undefined>;
  /** Weighs a mechanical strategy's result before it is applied. */
  readonly after: (
    strategy: CompressionStrategy,
    before: readonly HistoryEntry[],
    after: readonly HistoryEntry[],
    tokens: { readonly before: number; readonly after: number },
  ) => CompactionEconomics | undefined;
}

/**
 * Creates the orchestrator's cache-aware planner. Every method returns undefined when no conversation cost model is
 * known (nothing to weigh with).
 */
export function createCachePlanner(sources: CachePlannerSources): CachePlanner {
  const { history } = sources;
  const counter = () => history.tokenCounter;
  return {
    density: (result, raw) => {
      const costModel = sources.conversationCostModel();
      if (costModel === undefined) return undefined;
      const changed = [...result.removals, ...result.replacements.keys()];
      if (changed.length === 0) return undefined;
      const first = Math.min(...changed);
      const removedTokens = [...new Set(changed)].reduce(
        (sum, index) => sum + (raw[index] === undefined ? 0 : counter().countEntry(raw[index])),
        0,
      );
      const addedTokens = [...result.replacements.values()].reduce((sum, entry) => sum + counter().countEntry(entry), 0);
      const tokensBefore = history.getTotalTokens();
      return weighCompaction({
        costModel,
        tokensBefore,
        tokensAfter: Math.max(0, tokensBefore - removedTokens + addedTokens),
        unchangedPrefixTokens: history.getOverheadTokens() + counter().countEntries(raw.slice(0, first)),
        cachedTokens: sources.cachedTokens(),
        horizonTurns: sources.horizonTurns(),
      });
    },
    before: async (strategy, context) => {
      const conversationCostModel = sources.conversationCostModel();
      if (conversationCostModel === undefined) return undefined;
      const condensingCostModel = sources.condensingCostModel();
      const outputRatio = sources.outputRatio();
      const estimate = await estimateStrategyCost(strategy, context, {
        conversationCostModel,
        ...(condensingCostModel === undefined ? {} : { condensingCostModel }),
        ...(outputRatio === undefined ? {} : { outputRatio }),
        cachedTokens: sources.cachedTokens(),
        horizonTurns: sources.horizonTurns(),
      });
      return estimate.economics;
    },
    after: (_strategy, before, after, tokens) => {
      const costModel = sources.conversationCostModel();
      if (costModel === undefined) return undefined;
      return weighCompaction({
        costModel,
        tokensBefore: tokens.before,
        tokensAfter: tokens.after,
        unchangedPrefixTokens: history.getOverheadTokens() + counter().countEntries(before.slice(0, firstChangedIndex(before, after))),
        cachedTokens: sources.cachedTokens(),
        horizonTurns: sources.horizonTurns(),
      });
    },
  };
}
