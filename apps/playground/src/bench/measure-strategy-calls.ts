import {
  createCompressionBudget,
  createCountingTokenizer,
  createTokenCounter,
  densityDefaults,
  parseHistory,
  type CompressionContext,
  type CompressionStrategy,
  type DensityConfig,
  type HistoryEntry,
  type Tokenizer,
} from '@ctx/core';
import { inferWorkspaceRoot } from '@ctx/strategy-utils';
import type { BenchSession } from './bench-sessions.js';
import { medianMeasure, medianTime, type MedianTimeOptions } from './median-time.js';

/** A strategy's own calls on a whole session, in milliseconds (median of the runs); undefined when it has no `optimize`. */
export interface StrategyCallTimes {
  /** `optimize()` by a strategy that has optimized this history before (the agent loop's steady state). */
  readonly optimizeWarm: number | undefined;
  /** `optimize()` by a new strategy, on entries no strategy has seen (a new copy of the history). */
  readonly optimizeFresh: number | undefined;
  /** `compress()` by a strategy that has compressed this history before, every entry already counted. */
  readonly compressWarm: number;
  /**
   * `compress()` by a new strategy on entries no strategy has seen (a new copy of the history), with a new counter
   * that has counted them (as the history service has).
   */
  readonly compressFresh: number;
  /**
   * Of a fresh `compress()`, the time spent in the tokenizer (median of separate, instrumented runs): counting the
   * text the strategy wrote, which an exact count cannot skip. A lower bound for any design writing that text.
   */
  readonly compressFreshTokenizing: number;
}

/** Options of {@link measureStrategyCalls}. */
export interface MeasureStrategyCallsOptions {
  readonly session: BenchSession;
  readonly createStrategy: () => CompressionStrategy;
  readonly tokenizer: Tokenizer;
  /** Timed runs per figure; the median is reported. */
  readonly runs: number;
  /** The untimed warm-up's budget (see {@link medianTime}). */
  readonly warmUp?: MedianTimeOptions;
}

/**
 * Times `optimize()` and `compress()` on a whole session, warm and fresh. Compression aims at the spec's default:
 * the window is the session's own size at threshold 0.85, as `ctx compare` uses by default.
 */
export async function measureStrategyCalls(options: MeasureStrategyCallsOptions): Promise<StrategyCallTimes> {
  const { session, createStrategy, tokenizer, runs, warmUp = {} } = options;
  // Strategies get the history service's entries: validated, copied and frozen once. Warm calls see the same ones
  // every time; each fresh call gets its own copy, so nothing it finds was seen before (a new conversation).
  const history = parseHistory(session.history);
  const config: DensityConfig = { ...densityDefaults, workspaceRoot: inferWorkspaceRoot(history) };
  const newCopy = () => parseHistory(structuredClone(session.history));
  const contextFor = (entries: readonly HistoryEntry[], counter: Tokenizer = tokenizer): CompressionContext => {
    const tokenCounter = createTokenCounter(counter);
    const contextLimit = tokenCounter.countEntries(entries) + tokenCounter.countOverhead(session.system, session.tools);
    return {
      history: entries,
      system: session.system,
      tools: session.tools,
      tokenCounter,
      budget: createCompressionBudget({ contextLimit: Math.max(1, contextLimit), threshold: 0.85 }),
    };
  };

  let optimizeWarm: number | undefined;
  let optimizeFresh: number | undefined;
  const warm = createStrategy();
  if (warm.optimize !== undefined) {
    warm.optimize(history, config);
    optimizeWarm = await medianTime(runs, () => warm, (strategy) => strategy.optimize?.(history, config), warmUp);
    optimizeFresh = await medianTime(
      runs,
      () => ({ strategy: createStrategy(), history: newCopy() }),
      ({ strategy, history: fresh }) => strategy.optimize?.(fresh, config),
      warmUp,
    );
  }
  const context = contextFor(history);
  await warm.compress(context);
  const compressWarm = await medianTime(runs, () => context, (same) => warm.compress(same), warmUp);
  const compressFresh = await medianTime(
    runs,
    () => ({ strategy: createStrategy(), context: contextFor(newCopy()) }),
    ({ strategy, context: fresh }) => strategy.compress(fresh),
    warmUp,
  );
  // Instrumented apart from the timed runs, so the wrapper's clock reads do not weigh on `compressFresh`. The history
  // is counted before the call (as the history service has): only what compress() writes reaches the tokenizer.
  const compressFreshTokenizing = await medianMeasure(
    runs,
    () => {
      const counting = createCountingTokenizer(tokenizer);
      return { strategy: createStrategy(), context: contextFor(newCopy(), counting.tokenizer), counting };
    },
    async ({ strategy, context, counting }) => {
      const before = counting.stats().milliseconds;
      await strategy.compress(context);
      return counting.stats().milliseconds - before;
    },
    warmUp,
  );
  return { optimizeWarm, optimizeFresh, compressWarm, compressFresh, compressFreshTokenizing };
}
