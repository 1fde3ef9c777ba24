import { describe, expect, it } from 'vitest';
import { findOpenAIModelPrice } from './find-openai-model-price.js';
import { openAIPrices } from './openai-prices.js';

describe('openAIPrices', () => {
  it.each(openAIPrices)('should hold positive, ordered, dated and sourced prices for $model', (price) => {
    for (const value of [price.inputPerMillion, price.outputPerMillion, price.cacheReadPerMillion]) {
      expect(Number.isFinite(value) && value > 0).toBe(true);
    }
    expect(price.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(price.asOf))).toBe(false);
    expect(price.source).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\/\S*$/);
    expect(price.cacheReadPerMillion).toBeLessThan(price.inputPerMillion);
    expect(price.inputPerMillion).toBeLessThan(price.outputPerMillion);
  });

  it('should have one entry per model: no id or alias names two entries', () => {
    const names = openAIPrices.flatMap((price) => [price.model, ...(price.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('findOpenAIModelPrice', () => {
  it('should find a model by id, alias and dated snapshot, and return undefined rather than guess', () => {
    expect(findOpenAIModelPrice('gpt-4o-mini')?.inputPerMillion).toBe(0.15);
    expect(findOpenAIModelPrice('gpt-4o-mini-2024-07-18')?.model).toBe('gpt-4o-mini');
    expect(findOpenAIModelPrice('gpt-5-mini-2026-01-01')?.model).toBe('gpt-5-mini');
    expect(findOpenAIModelPrice('gpt-4.1-mini')).toBeUndefined();
    expect(findOpenAIModelPrice('gpt-5')).toBeUndefined();
  });
});
