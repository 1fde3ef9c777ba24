import { describe, expect, it } from 'vitest';
import { pricedModel, sonnetLike } from '../test-support/priced-model.js';
import { unitPricesOf } from './unit-prices.js';
import { weighCompaction } from './weigh-compaction.js';

describe('unitPricesOf', () => {
  it('should read the price per token of each component from any cost model', () => {
    expect(unitPricesOf(sonnetLike)).toEqual({ input: 3e-6, output: 15e-6, cacheWrite: 3.75e-6, cacheRead: 0.3e-6 });
  });
});

describe('weighCompaction', () => {
  it('should decline a small saving that makes the provider write a large cached prefix again', () => {
    const economics = weighCompaction({
      costModel: sonnetLike,
      tokensBefore: 100_000,
      tokensAfter: 99_800,
      unchangedPrefixTokens: 2_000,
      horizonTurns: 10,
    });
    expect(economics.pays).toBe(false);
    expect(economics.rewrittenTokens).toBe(98_000);
    // 98,000 × (3.75 − 0.30) / 1M = $0.338 against 200 tokens not written once (3.75) then not read 9 times (0.30).
    expect(economics.cacheRewriteUsd).toBeCloseTo(0.3381, 6);
    expect(economics.savedUsd).toBeCloseTo(0.00129, 8);
    expect(economics.message).toMatch(/^does not pay: would save \$0\.0013 over 10 calls \(200 tokens\) but cost \$0\.34/);
  });

  it('should compact when the saving over the horizon outweighs the rewrite, and say after how many calls it pays', () => {
    const economics = weighCompaction({
      costModel: sonnetLike,
      tokensBefore: 170_000,
      tokensAfter: 40_000,
      unchangedPrefixTokens: 5_000,
      horizonTurns: 10,
    });
    expect(economics.pays).toBe(true);
    // Rewrite 165,000 × 3.45e-6 = $0.569; saving 130,000 × 3.75e-6 = $0.4875 on the next call, then $0.039 a call.
    expect(economics.breakEvenTurns).toBe(4);
    expect(economics.netUsd).toBeCloseTo(0.4875 + 9 * 0.039 - 0.56925, 6);
  });

  it('should count the summarizer calls as part of the cost', () => {
    const mechanical = weighCompaction({ costModel: sonnetLike, tokensBefore: 60_000, tokensAfter: 20_000, unchangedPrefixTokens: 0, horizonTurns: 10 });
    const summarized = weighCompaction({
      costModel: sonnetLike,
      tokensBefore: 60_000,
      tokensAfter: 20_000,
      unchangedPrefixTokens: 0,
      horizonTurns: 10,
      compactionUsd: 0.2,
    });
    expect(mechanical.pays).toBe(true);
    expect(summarized.pays).toBe(false);
    expect(summarized.netUsd).toBeCloseTo(mechanical.netUsd - 0.2, 9);
    expect(summarized.message).toContain('of summarizer calls');
  });

  it('should treat a rewrite as free on a model whose cache costs what input costs', () => {
    const uncached = pricedModel('uncached', { input: 2, output: 8 });
    const economics = weighCompaction({ costModel: uncached, tokensBefore: 10_000, tokensAfter: 9_990, unchangedPrefixTokens: 0, horizonTurns: 1 });
    expect(economics.cacheRewriteUsd).toBe(0);
    expect(economics.pays).toBe(true);
    expect(economics.breakEvenTurns).toBe(1);
  });

  it('should cost nothing extra to change content added since the last call, which is not cached yet', () => {
    const economics = weighCompaction({
      costModel: sonnetLike,
      tokensBefore: 100_000,
      tokensAfter: 99_800,
      unchangedPrefixTokens: 99_000,
      cachedTokens: 99_000,
      horizonTurns: 1,
    });
    expect(economics).toMatchObject({ pays: true, rewrittenTokens: 0, cacheRewriteUsd: 0, breakEvenTurns: 1 });
  });

  it('should decline a pass that saves nothing but rewrites cached content, and let one that touches nothing cached pass', () => {
    const rewriting = weighCompaction({ costModel: sonnetLike, tokensBefore: 5_000, tokensAfter: 5_000, unchangedPrefixTokens: 1_000, horizonTurns: 10 });
    expect(rewriting).toMatchObject({ pays: false, breakEvenTurns: Infinity });
    const harmless = weighCompaction({ costModel: sonnetLike, tokensBefore: 5_000, tokensAfter: 5_000, unchangedPrefixTokens: 5_000, horizonTurns: 10 });
    expect(harmless).toMatchObject({ pays: true, netUsd: 0 });
  });
});
