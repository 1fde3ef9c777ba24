import type { TokenUsage } from '../strategy/cost-model.js';
import type { SummarizeRequest, Summarizer } from '../strategy/summarizer.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** One summarizer call as the meter saw it. */
export interface SummarizerCall {
  /** Tokens of the call, as the model reported them, or counted with our tokenizer when it did not. */
  readonly usage: TokenUsage;
  /** True when `usage` is the model's own report. */
  readonly reported: boolean;
  readonly durationMs: number;
}

/** A summarizer that records every call it passes on (spec 004 FR-CO-003 "cost tracking per condensation"). */
export interface MeteredSummarizer {
  /** Hand this one to strategies; it calls the wrapped summarizer. */
  readonly summarizer: Summarizer;
  /** The calls recorded since the last {@link MeteredSummarizer.take}, and forgets them. */
  take(): SummarizerCall[];
  /**
   * Output tokens per input token over every successful call so far (undefined before the first): what cost
   * estimates expect the next summary to take.
   */
  outputRatio(): number | undefined;
}

/** Tokens a summarize request sends: its entries and its instructions. */
export function countSummarizeRequest(counter: TokenCounter, request: SummarizeRequest): number {
  return counter.countEntries(request.entries) + (request.instructions === undefined ? 0 : counter.countText(request.instructions));
}

/**
 * Wraps a summarizer so that every call's usage is recorded: the usage the model reported, else our count of the
 * request and the summary. Failed calls are not recorded (nothing was produced; providers rarely bill them).
 */
export function meterSummarizer(summarizer: Summarizer, counter: TokenCounter): MeteredSummarizer {
  let pending: SummarizerCall[] = [];
  let totalInput = 0;
  let totalOutput = 0;
  const metered: Summarizer = {
    specificationVersion: 'v1',
    name: summarizer.name,
    ...(summarizer.contextWindow === undefined ? {} : { contextWindow: summarizer.contextWindow }),
    summarize: async (request) => {
      const started = globalThis.performance.now();
      const result = await summarizer.summarize(request);
      const usage: TokenUsage = result.usage ?? {
        inputTokens: countSummarizeRequest(counter, request),
        outputTokens: counter.countText(result.text),
      };
      const input = usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
      totalInput += input;
      totalOutput += usage.outputTokens;
      pending.push({ usage, reported: result.usage !== undefined, durationMs: globalThis.performance.now() - started });
      return result;
    },
  };
  return {
    summarizer: metered,
    take: () => {
      const calls = pending;
      pending = [];
      return calls;
    },
    outputRatio: () => (totalInput > 0 ? totalOutput / totalInput : undefined),
  };
}
