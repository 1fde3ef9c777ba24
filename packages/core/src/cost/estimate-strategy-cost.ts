import type { CompressionContext } from '../strategy/compression-context.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import type { CostEstimate, CostModel, TokenUsage } from '../strategy/cost-model.js';
import type { SummarizeRequest, Summarizer } from '../strategy/summarizer.js';
import { firstChangedIndex } from './first-changed-index.js';
import { countSummarizeRequest } from './meter-summarizer.js';
import { weighCompaction, type CompactionEconomics } from './weigh-compaction.js';

/** Options of {@link estimateStrategyCost}. */
export interface StrategyCostOptions {
  /** Prices the summarizer's model (the condensing profile's). Without it the conversation's model prices it. */
  readonly condensingCostModel?: CostModel;
  /** Prices the conversation's model, whose prompt cache the compaction rewrites; needed for `economics`. */
  readonly conversationCostModel?: CostModel;
  /**
   * Model calls the saving is counted over (see `weighCompaction`).
   * @default 10
   */
  readonly horizonTurns?: number;
  /**
   * Output tokens per input token a summary is expected to take; the orchestrator passes what its summarizer
   * actually produced so far.
   * @default 0.1 (at least 200 tokens, at most the request's `maxOutputTokens`)
   */
  readonly outputRatio?: number;
  /**
   * Estimate as if the context had a summarizer even when it has none (to price a condensing profile before
   * configuring it). The stand-in is used either way; no model is called.
   * @default false
   */
  readonly assumeSummarizer?: boolean;
  /**
   * Tokens at the start of the request the provider has cached (see `weighCompaction`); by default all of it.
   */
  readonly cachedTokens?: number;
}

/** What a strategy's `compress()` is expected to cost and change (spec 004 FR-CO-004). */
export interface StrategyCostEstimate extends CostEstimate {
  readonly strategy: string;
  /** Whether `compress()` would change the history at all. */
  readonly outcome: 'applied' | 'no-op';
  /** The request (history, system, tools) now and as expected after `compress()`. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Tokens at the start of the request `compress()` leaves as they are: still in the provider's cache after it. */
  readonly unchangedPrefixTokens: number;
  /** Net effect with the prompt cache; present when a conversation cost model was given. */
  readonly economics?: CompactionEconomics;
  /** How long the estimate took. */
  readonly durationMs: number;
}

const defaultOutputRatio = 0.1;
const minimumSummaryTokens = 200;

function expectedSummaryTokens(inputTokens: number, request: SummarizeRequest, ratio: number): number {
  const expected = Math.max(minimumSummaryTokens, Math.round(inputTokens * ratio));
  return request.maxOutputTokens === undefined ? expected : Math.min(request.maxOutputTokens, expected);
}

/**
 * Estimates what `compress()` would cost before running it (spec 004 FR-CO-004), for every strategy: it runs the
 * strategy with a stand-in summarizer that answers each request at once with a placeholder of the expected summary
 * length, so the estimate sees exactly the calls the strategy would make (multi-pass strategies included), their
 * input, and the history that would result, without calling a model. Each call is priced at the condensing model's
 * prices; with the conversation's cost model the net effect on its prompt cache is weighed too (`economics`). A
 * strategy's own `estimateCost` replaces the summarizer figures when it has one.
 *
 * The context's summarizer is never called. Without one in the context the strategy runs as it would without one
 * (an LLM strategy then estimates its no-op or mechanical fallback).
 *
 * @example
 * ```ts
 * const estimate = await estimateStrategyCost(nativeStrategy, context, {
 *   condensingCostModel: createAnthropicCostModel('claude-haiku-4-5'),
 *   conversationCostModel: createAnthropicCostModel('claude-sonnet-4-5'),
 * });
 * estimate.usd; // summarizer calls
 * estimate.economics?.pays; // whether compacting now is worth its cache rewrite
 * ```
 */
export async function estimateStrategyCost(
  strategy: CompressionStrategy,
  context: CompressionContext,
  options: StrategyCostOptions = {},
): Promise<StrategyCostEstimate> {
  const started = globalThis.performance.now();
  const counter = context.tokenCounter;
  const ratio = options.outputRatio ?? defaultOutputRatio;
  const calls: TokenUsage[] = [];
  const standIn = (real: Summarizer | undefined): Summarizer => ({
    specificationVersion: 'v1',
    name: real?.name ?? 'estimate',
    ...(real?.contextWindow === undefined ? {} : { contextWindow: real.contextWindow }),
    summarize: (request) => {
      const inputTokens = countSummarizeRequest(counter, request);
      const outputTokens = expectedSummaryTokens(inputTokens, request, ratio);
      calls.push({ inputTokens, outputTokens });
      return Promise.resolve({ text: 'summary '.repeat(outputTokens).trimEnd(), usage: { inputTokens, outputTokens } });
    },
  });
  const dryRun: CompressionContext = {
    ...context,
    ...(context.summarizer === undefined && options.assumeSummarizer !== true
      ? {}
      : { summarizer: standIn(context.summarizer) }),
  };
  const overhead = counter.countOverhead(context.system, context.tools);
  const tokensBefore = counter.countEntries(context.history) + overhead;
  const result = await strategy.compress(dryRun);
  const newHistory = result.type === 'applied' ? result.newHistory : context.history;
  const tokensAfter = Math.min(tokensBefore, counter.countEntries(newHistory) + overhead);
  const unchangedPrefixTokens =
    overhead + counter.countEntries(context.history.slice(0, firstChangedIndex(context.history, newHistory)));

  const usage: TokenUsage = {
    inputTokens: calls.reduce((sum, call) => sum + call.inputTokens, 0),
    outputTokens: calls.reduce((sum, call) => sum + call.outputTokens, 0),
  };
  const pricing = options.condensingCostModel ?? options.conversationCostModel;
  let usd = pricing === undefined ? 0 : calls.reduce((sum, call) => sum + pricing.price(call), 0);
  let llmCalls = calls.length;
  if (strategy.estimateCost !== undefined && pricing !== undefined) {
    const own = await strategy.estimateCost(context, pricing);
    usd = own.usd;
    llmCalls = own.llmCalls;
  }
  const outcome = result.type === 'applied' && tokensAfter < tokensBefore ? 'applied' : 'no-op';
  const economics =
    options.conversationCostModel === undefined || outcome === 'no-op'
      ? undefined
      : weighCompaction({
          costModel: options.conversationCostModel,
          tokensBefore,
          tokensAfter,
          unchangedPrefixTokens,
          compactionUsd: usd,
          horizonTurns: options.horizonTurns ?? 10,
          ...(options.cachedTokens === undefined ? {} : { cachedTokens: options.cachedTokens }),
        });
  return {
    strategy: strategy.name,
    outcome,
    usd,
    llmCalls,
    usage,
    tokensBefore,
    tokensAfter,
    unchangedPrefixTokens,
    ...(economics === undefined ? {} : { economics }),
    durationMs: globalThis.performance.now() - started,
  };
}
