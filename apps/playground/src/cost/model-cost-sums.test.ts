import { findAnthropicModelPrice } from '@ctx/cost-anthropic';
import { describe, expect, it } from 'vitest';
import { sumCostByModel } from './model-cost-sums.js';

const sonnet = 'claude-sonnet-4-5-20250929';

describe('sumCostByModel', () => {
  it('should sum tokens per model and price each at its own rates, 1-hour cache writes at the 1-hour price', () => {
    const price = findAnthropicModelPrice(sonnet);
    if (price === undefined) throw new Error(`the price table has no ${sonnet}`);
    const { models, total } = sumCostByModel([
      { model: sonnet, usage: { inputTokens: 1_000_000, outputTokens: 0 } },
      { model: sonnet, usage: { inputTokens: 0, outputTokens: 0, cacheWrite1hTokens: 1_000_000 } },
      { model: sonnet, usage: { inputTokens: 0, outputTokens: 0, cacheWriteTokens: 1_000_000 } },
    ]);
    expect(models).toHaveLength(1);
    expect(models[0]).toMatchObject({ model: sonnet, calls: 3, inputTokens: 1_000_000, cacheWrite5mTokens: 1_000_000, cacheWrite1hTokens: 1_000_000 });
    expect(total.usd).toBeCloseTo(price.inputPerMillion + price.cacheWrite1hPerMillion + price.cacheWrite5mPerMillion, 9);
    expect(price.cacheWrite1hPerMillion).toBeGreaterThan(price.cacheWrite5mPerMillion);
  });

  it('should list a model with no price with its tokens and a null price, and leave it out of the dollar total', () => {
    const { models, total } = sumCostByModel([
      { model: 'gpt-5-not-claude', usage: { inputTokens: 500, outputTokens: 50 } },
      { model: sonnet, usage: { inputTokens: 100, outputTokens: 10 } },
    ]);
    expect(models.find((sum) => sum.model === 'gpt-5-not-claude')).toMatchObject({ usd: null, inputTokens: 500, outputTokens: 50 });
    expect(total).toMatchObject({ inputTokens: 600, outputTokens: 60, unpricedModels: ['gpt-5-not-claude'] });
    expect(total.usd).toBeCloseTo(sumCostByModel([{ model: sonnet, usage: { inputTokens: 100, outputTokens: 10 } }]).total.usd, 12);
  });

  it('should charge nothing for <synthetic> messages while counting their tokens', () => {
    const { models, total } = sumCostByModel([{ model: '<synthetic>', usage: { inputTokens: 7, outputTokens: 3 } }]);
    expect(models[0]).toMatchObject({ model: '<synthetic>', usd: 0, inputTokens: 7 });
    expect(total).toMatchObject({ usd: 0, unpricedModels: [], outputTokens: 3 });
  });
});
