import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../history/history-entry.js';
import { HistoryService } from '../history/history-service.js';
import { createCompressionBudget } from '../strategy/compression-budget.js';
import type { CompressionContext } from '../strategy/compression-context.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import type { Summarizer } from '../strategy/summarizer.js';
import { ai, human } from '../test-support/entries.js';
import { haikuLike, pricedModel, sonnetLike } from '../test-support/priced-model.js';
import { words } from '../test-support/stub-strategies.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import { InvalidApiProfileError } from '../errors/invalid-api-profile-error.js';
import type { ApiProfile } from './api-profile.js';
import { compareCondensingProfiles } from './compare-condensing-profiles.js';

const summarizeAllButLast: CompressionStrategy = {
  specificationVersion: 'v1',
  name: 'summarize-all-but-last',
  requiresLLM: true,
  trigger: { mode: 'threshold', defaultThreshold: 0.85 },
  async compress(context) {
    if (context.summarizer === undefined) return { type: 'no-op', reason: 'missing-summarizer' };
    const { text } = await context.summarizer.summarize({ entries: context.history.slice(0, -1), maxOutputTokens: 1_000 });
    return {
      type: 'applied',
      newHistory: [human(text), ...context.history.slice(-1)],
      metadata: { originalMessageCount: context.history.length, compressedMessageCount: 2, strategyUsed: 'x', llmCallMade: true },
    };
  },
};

const summarizer: Summarizer = { specificationVersion: 'v1', name: 's', summarize: () => Promise.reject(new Error('not called')) };

function context(): CompressionContext {
  const entries: HistoryEntry[] = Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? human(words(3_000)) : ai(words(1_000))));
  const history = new HistoryService({ tokenizer: createWordTokenizer(), history: entries });
  return {
    history: history.getCurated(),
    system: [],
    tools: [],
    tokenCounter: history.tokenCounter,
    budget: createCompressionBudget({ contextLimit: 200_000, threshold: 0.85 }),
  };
}

const profiles: ApiProfile[] = [
  { id: 'sonnet', model: 'claude-sonnet-4-5', contextWindow: 200_000, costModel: sonnetLike, summarizer },
  { id: 'pricey', model: 'opus-like', contextWindow: 200_000, costModel: pricedModel('opus-like', { input: 15, output: 75 }) },
  { id: 'haiku', model: 'claude-haiku-4-5', contextWindow: 200_000, costModel: haikuLike, summarizer },
  { id: 'unpriced', model: 'local', contextWindow: 32_000, summarizer },
];

describe('compareCondensingProfiles', () => {
  it("FR-CO-003: should show each profile's cost for one compaction and what a cheaper condensing profile saves", async () => {
    const comparison = await compareCondensingProfiles(summarizeAllButLast, context(), profiles, { conversationProfile: 'sonnet' });
    expect(comparison.rows.map((row) => row.profile)).toEqual(['sonnet', 'haiku', 'pricey']);
    const [sonnet, haiku, pricey] = comparison.rows;
    expect(sonnet?.savingsUsd).toBe(0);
    expect(sonnet?.estimate.usd).toBeGreaterThan(0);
    // Haiku's prices are a third of Sonnet's: two thirds saved on every compaction.
    expect(haiku?.savingsShare).toBeCloseTo(2 / 3, 9);
    expect(pricey?.savingsUsd).toBeLessThan(0);
  });

  it('FR-CO-003: should recommend the cheapest profile that can summarize', async () => {
    const comparison = await compareCondensingProfiles(summarizeAllButLast, context(), profiles, { conversationProfile: 'sonnet' });
    expect(comparison.recommended).toBe('haiku');
  });

  it('should refuse a conversation profile without prices, naming it', async () => {
    await expect(compareCondensingProfiles(summarizeAllButLast, context(), profiles, { conversationProfile: 'unpriced' })).rejects.toThrow(
      InvalidApiProfileError,
    );
  });
});
