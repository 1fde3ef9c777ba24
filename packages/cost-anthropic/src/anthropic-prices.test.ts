import { describe, expect, it } from 'vitest';
import { anthropicPrices } from './anthropic-prices.js';

/** Claude Haiku 3's 5-minute write is $0.30 on the page, not 1.25 × $0.25: the page's own exception. */
const fiveMinuteWriteExceptions = new Set(['claude-3-haiku-20240307']);

describe('anthropicPrices', () => {
  it.each(anthropicPrices)('should hold positive, ordered, dated and sourced prices for $model', (price) => {
    for (const value of [
      price.inputPerMillion,
      price.outputPerMillion,
      price.cacheWrite5mPerMillion,
      price.cacheWrite1hPerMillion,
      price.cacheReadPerMillion,
    ]) {
      expect(Number.isFinite(value) && value > 0).toBe(true);
    }
    expect(price.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(price.asOf))).toBe(false);
    expect(price.source).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\/\S*$/);
    expect(price.cacheReadPerMillion).toBeLessThan(price.inputPerMillion);
    expect(price.inputPerMillion).toBeLessThan(price.outputPerMillion);
    expect(price.cacheWrite1hPerMillion).toBeCloseTo(2 * price.inputPerMillion, 10);
    if (!fiveMinuteWriteExceptions.has(price.model)) {
      expect(price.cacheWrite5mPerMillion).toBeCloseTo(1.25 * price.inputPerMillion, 10);
    }
  });

  it('should have one entry per model: no id or alias names two entries', () => {
    const names = anthropicPrices.flatMap((price) => [price.model, ...(price.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
  });
});
