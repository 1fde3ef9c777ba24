import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../history/history-entry.js';
import { HistoryService } from '../history/history-service.js';
import { createCompressionBudget } from '../strategy/compression-budget.js';
import type { CompressionContext } from '../strategy/compression-context.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import type { Summarizer } from '../strategy/summarizer.js';
import { ai, human } from '../test-support/entries.js';
import { haikuLike, sonnetLike } from '../test-support/priced-model.js';
import { dropFirst, words } from '../test-support/stub-strategies.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import { estimateStrategyCost } from './estimate-strategy-cost.js';
import { meterSummarizer } from './meter-summarizer.js';

/** An LLM strategy that summarizes the history in `batches` calls, keeping the newest entry. */
function summarizingInBatches(batches: number): CompressionStrategy {
  return {
    specificationVersion: 'v1',
    name: `summarize-${batches}`,
    requiresLLM: true,
    trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    async compress(context) {
      if (context.summarizer === undefined) return { type: 'no-op', reason: 'missing-summarizer' };
      const older = context.history.slice(0, -1);
      const size = Math.ceil(older.length / batches);
      const summaries: HistoryEntry[] = [];
      for (let start = 0; start < older.length; start += size) {
        const { text } = await context.summarizer.summarize({
          entries: older.slice(start, start + size),
          instructions: 'Summarize this part of the conversation.',
          maxOutputTokens: 2_000,
        });
        summaries.push(human(text));
      }
      return {
        type: 'applied',
        newHistory: [...summaries, ...context.history.slice(-1)],
        metadata: { originalMessageCount: context.history.length, compressedMessageCount: summaries.length + 1, strategyUsed: this.name, llmCallMade: true },
      };
    },
  };
}

/** Answers with the first 12% of the words it was given, the way a real model's summary is a fraction of its input. */
const shortening: Summarizer = {
  specificationVersion: 'v1',
  name: 'shortening',
  summarize: ({ entries }) => {
    const all = entries.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'text' ? block.text.split(' ') : [])));
    return Promise.resolve({ text: all.slice(0, Math.round(all.length * 0.12)).join(' ') });
  },
};

const refusing: Summarizer = {
  specificationVersion: 'v1',
  name: 'refusing',
  summarize: () => Promise.reject(new Error('an estimate must never call the model')),
};

function contextOf(entries: HistoryEntry[], summarizer?: Summarizer): CompressionContext {
  const history = new HistoryService({ tokenizer: createWordTokenizer(), history: entries, system: [{ type: 'text', text: words(50) }] });
  return {
    history: history.getCurated(),
    system: history.getSystem(),
    tools: history.getTools(),
    tokenCounter: history.tokenCounter,
    budget: createCompressionBudget({ contextLimit: 100_000, threshold: 0.85, overheadTokens: history.getOverheadTokens() }),
    ...(summarizer === undefined ? {} : { summarizer }),
  };
}

const conversation = () => Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? human(words(2_000)) : ai(words(1_000))));

describe('estimateStrategyCost', () => {
  it('FR-CO-004: should count every call a multi-pass strategy would make, with its input, without calling the model', async () => {
    const estimate = await estimateStrategyCost(summarizingInBatches(3), contextOf(conversation(), refusing), { condensingCostModel: haikuLike });
    expect(estimate.llmCalls).toBe(3);
    // 19 older entries of 2,000 or 1,000 words, 3 tokens of framing each, plus 6 words of instructions per call.
    expect(estimate.usage.inputTokens).toBe(10 * 2_000 + 9 * 1_000 + 19 * 3 + 3 * 6);
    expect(estimate.outcome).toBe('applied');
    expect(estimate.tokensAfter).toBeLessThan(estimate.tokensBefore);
  });

  it('FR-CO-004: should estimate within 20% of what the compression then cost', async () => {
    const strategy = summarizingInBatches(2);
    const estimate = await estimateStrategyCost(strategy, contextOf(conversation(), refusing), { condensingCostModel: haikuLike });
    const context = contextOf(conversation(), shortening);
    const meter = meterSummarizer(shortening, context.tokenCounter);
    await strategy.compress({ ...context, summarizer: meter.summarizer });
    const actual = meter.take().reduce((sum, call) => sum + haikuLike.price(call.usage), 0);
    expect(actual).toBeGreaterThan(0);
    expect(Math.abs(estimate.usd - actual) / actual).toBeLessThanOrEqual(0.2);
  });

  it('FR-CO-004: should change with the condensing model it is priced at', async () => {
    const context = contextOf(conversation(), refusing);
    const cheap = await estimateStrategyCost(summarizingInBatches(1), context, { condensingCostModel: haikuLike });
    const dear = await estimateStrategyCost(summarizingInBatches(1), context, { condensingCostModel: sonnetLike });
    expect(dear.usd).toBeCloseTo(cheap.usd * 3, 9);
  });

  it('FR-CO-004: should weigh the prompt cache the compaction rewrites when given the conversation model', async () => {
    const estimate = await estimateStrategyCost(dropFirst('drop-first'), contextOf(conversation()), { conversationCostModel: sonnetLike });
    expect(estimate.llmCalls).toBe(0);
    expect(estimate.usd).toBe(0);
    // Only the system prompt (50 words) stays a cached prefix: the first entry is gone, so all the rest is written again.
    expect(estimate.unchangedPrefixTokens).toBe(50);
    expect(estimate.economics?.rewrittenTokens).toBe(estimate.tokensBefore - 50);
    expect(estimate.economics?.pays).toBe(false);
  });

  it('should estimate no calls for an LLM strategy when there is no summarizer, unless asked to assume one', async () => {
    const context = contextOf(conversation());
    expect(await estimateStrategyCost(summarizingInBatches(2), context)).toMatchObject({ llmCalls: 0, outcome: 'no-op' });
    expect(await estimateStrategyCost(summarizingInBatches(2), context, { assumeSummarizer: true })).toMatchObject({
      llmCalls: 2,
      outcome: 'applied',
    });
  });
});
