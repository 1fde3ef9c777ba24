// Cache-aware planning: the orchestrator declines an optional compaction that costs more in prompt-cache rewrites
// (and summarizer calls) than it saves over the next calls, and says why.
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../history/history-entry.js';
import { HistoryService } from '../history/history-service.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import type { CostModel } from '../strategy/cost-model.js';
import type { DensityResult } from '../strategy/density-result.js';
import type { Summarizer } from '../strategy/summarizer.js';
import { human } from '../test-support/entries.js';
import { haikuLike, sonnetLike } from '../test-support/priced-model.js';
import { words } from '../test-support/stub-strategies.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import type { CachePlanningOptions } from './cache-planner.js';
import { createCompressionOrchestrator } from './compression-orchestrator.js';
import { formatTurnReport } from './format-turn-report.js';

/** Ten entries of 1,000 words: 10,030 tokens with the word tokenizer. */
const tenEntries = (): HistoryEntry[] => Array.from({ length: 10 }, (_, index) => human(`${index} ${words(999)}`));

/** A continuous strategy whose optimize() removes the given raw indices once the history has 11 entries. */
function removing(indices: readonly number[]): CompressionStrategy {
  return {
    specificationVersion: 'v1',
    name: 'remove-some',
    requiresLLM: false,
    trigger: { mode: 'continuous', defaultThreshold: 0.85 },
    optimize: (history): DensityResult => ({
      removals: history.length === 11 ? [...indices] : [],
      replacements: new Map(),
      metadata: { removed: indices.length },
    }),
    compress: () => Promise.resolve({ type: 'no-op', reason: 'already-under-target' }),
  };
}

/** An LLM strategy that summarizes everything but the newest entry in one call. */
function summarizing(): CompressionStrategy {
  return {
    specificationVersion: 'v1',
    name: 'summarize-old',
    requiresLLM: true,
    trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    async compress(context) {
      if (context.summarizer === undefined) return { type: 'no-op', reason: 'missing-summarizer' };
      const { text } = await context.summarizer.summarize({ entries: context.history.slice(0, -1), maxOutputTokens: 500 });
      return {
        type: 'applied',
        newHistory: [human(text), ...context.history.slice(-1)],
        metadata: { originalMessageCount: context.history.length, compressedMessageCount: 2, strategyUsed: 'summarize-old', llmCallMade: true },
      };
    },
  };
}

function countingSummarizer(): Summarizer & { calls: number } {
  const summarizer = {
    specificationVersion: 'v1' as const,
    name: 'counting',
    calls: 0,
    summarize: () => {
      summarizer.calls += 1;
      return Promise.resolve({ text: words(300), usage: { inputTokens: 9_000, outputTokens: 300 } });
    },
  };
  return summarizer;
}

/** Sends the ten entries once (so the provider has them cached), then adds an eleventh: the next turn is weighed. */
async function afterOneCall(made: ReturnType<typeof setup>) {
  await made.orchestrator.ensureCompressionBeforeSend();
  made.history.add(human(`10 ${words(999)}`));
  return made;
}

function setup(
  strategy: CompressionStrategy,
  options: { contextLimit: number; costModel?: CostModel; cachePlanning?: CachePlanningOptions | false; summarizer?: Summarizer },
) {
  const history = new HistoryService({ tokenizer: createWordTokenizer(), history: tenEntries() });
  const orchestrator = createCompressionOrchestrator({ history, strategies: [strategy], calibration: false, ...options });
  return { history, orchestrator };
}

describe('createCompressionOrchestrator (cache-aware planning)', () => {
  it('should decline a density pass whose saving does not pay for rewriting the cached prompt, and say why', async () => {
    const { history, orchestrator } = await afterOneCall(setup(removing([1]), { contextLimit: 100_000, costModel: sonnetLike }));
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(history.length).toBe(11);
    expect(report.passes[0]).toMatchObject({ pass: 'density', outcome: 'no-op', reason: 'does-not-pay' });
    // Entries 1..9 were cached: written again instead of read, for 1,003 tokens saved.
    expect(report.passes[0]?.economics).toMatchObject({ pays: false, savedTokens: 1_003, rewrittenTokens: 9 * 1_003 });
    expect(formatTurnReport(report)).toMatch(/no-op \(does-not-pay\) — declined while the request still fits: it does not pay: would save \$0\.0065 over 10 calls/);
  });

  it('should apply a density pass near the end of the history, where little of the cache is rewritten', async () => {
    const { history, orchestrator } = await afterOneCall(setup(removing([7, 8]), { contextLimit: 100_000, costModel: sonnetLike }));
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(history.length).toBe(9);
    expect(report.passes[0]).toMatchObject({ outcome: 'applied', economics: { pays: true, rewrittenTokens: 3 * 1_003 } });
  });

  it('should apply a pass that changes only what was added since the last call: it is not cached yet', async () => {
    const { history, orchestrator } = await afterOneCall(setup(removing([10]), { contextLimit: 100_000, costModel: sonnetLike }));
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(history.length).toBe(10);
    expect(report.passes[0]).toMatchObject({ outcome: 'applied', economics: { rewrittenTokens: 0 } });
  });

  it('should apply the same density pass when the turn compresses anyway, since the cache is rewritten then', async () => {
    const { history, orchestrator } = await afterOneCall(setup(removing([1]), { contextLimit: 12_500, costModel: sonnetLike }));
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(history.length).toBe(10);
    expect(report.passes[0]).toMatchObject({ pass: 'density', outcome: 'applied' });
  });

  it('should not weigh anything without a cost model, or with planning turned off', async () => {
    for (const options of [{}, { costModel: sonnetLike, cachePlanning: false as const }]) {
      const { history, orchestrator } = await afterOneCall(setup(removing([1]), { contextLimit: 100_000, ...options }));
      await orchestrator.ensureCompressionBeforeSend();
      expect(history.length).toBe(10);
    }
  });

  it("should decline an LLM compaction before calling the summarizer when it does not pay within the horizon", async () => {
    const summarizer = countingSummarizer();
    const { history, orchestrator } = setup(summarizing(), {
      contextLimit: 11_000,
      costModel: sonnetLike,
      summarizer,
      cachePlanning: { horizonTurns: 1 },
    });
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(summarizer.calls).toBe(0);
    expect(history.length).toBe(10);
    expect(report.passes.at(-1)).toMatchObject({ pass: 'compression', outcome: 'no-op', reason: 'does-not-pay' });
    expect(report.passes.at(-1)?.message).toMatch(/of summarizer calls/);
  });

  it('should run the same LLM compaction when it pays over a longer horizon, and report what its calls cost', async () => {
    const summarizer = countingSummarizer();
    const { history, orchestrator } = setup(summarizing(), {
      contextLimit: 11_000,
      costModel: sonnetLike,
      summarizer,
      cachePlanning: { horizonTurns: 100 },
    });
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(summarizer.calls).toBe(1);
    expect(history.length).toBe(2);
    const pass = report.passes.at(-1);
    expect(pass).toMatchObject({ outcome: 'applied', economics: { pays: true } });
    expect(pass?.summarizerCalls).toEqual([expect.objectContaining({ reported: true, usage: { inputTokens: 9_000, outputTokens: 300 } })]);
    expect(pass?.summarizerUsd).toBeCloseTo(sonnetLike.price({ inputTokens: 9_000, outputTokens: 300 }), 9);
    expect(formatTurnReport(report)).toMatch(/\n {3}cache: pays: saves \$[\d.]+ over 100 calls for .*\n {3}summarizer: 1 call, 9,000 tokens in, 300 out, \$0\.0315/);
  });

  it('should never decline a forced compression', async () => {
    const summarizer = countingSummarizer();
    const { history, orchestrator } = setup(summarizing(), { contextLimit: 100_000, costModel: sonnetLike, summarizer, cachePlanning: { horizonTurns: 1 } });
    await orchestrator.performCompression();
    expect(summarizer.calls).toBe(1);
    expect(history.length).toBe(2);
  });

  it('should never decline when the request does not fit the window', async () => {
    const summarizer = countingSummarizer();
    const { history, orchestrator } = setup(summarizing(), { contextLimit: 11_000, costModel: sonnetLike, summarizer, cachePlanning: { horizonTurns: 1 } });
    const report = await orchestrator.ensureCompressionBeforeSend({ pendingTokens: 2_000 });
    expect(summarizer.calls).toBe(1);
    expect(history.length).toBe(2);
    expect(report.request.fits).toBe(true);
  });

  it("should price summarizer calls at the condensing profile's model, not the conversation's", async () => {
    const summarizer = countingSummarizer();
    const history = new HistoryService({ tokenizer: createWordTokenizer(), history: tenEntries() });
    const orchestrator = createCompressionOrchestrator({
      history,
      strategies: [summarizing()],
      calibration: false,
      profiles: [
        { id: 'sonnet', model: 'claude-sonnet-4-5', contextWindow: 11_000, costModel: sonnetLike },
        { id: 'haiku', model: 'claude-haiku-4-5', contextWindow: 200_000, costModel: haikuLike, summarizer },
      ],
      settings: { 'compression.condensingProfile': 'haiku' },
      cachePlanning: { horizonTurns: 100 },
    });
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.passes.at(-1)?.summarizerUsd).toBeCloseTo(haikuLike.price({ inputTokens: 9_000, outputTokens: 300 }), 9);
  });
});
