import type { CostModel } from '../strategy/cost-model.js';

/** Prices per million tokens of a test cost model. */
export interface TestPrices {
  readonly input: number;
  readonly output: number;
  readonly cacheWrite?: number;
  readonly cacheRead?: number;
}

/** A cost model with Anthropic's accounting (input excludes cached tokens) at the given prices per million. */
export function pricedModel(name: string, prices: TestPrices): CostModel {
  return {
    specificationVersion: 'v1',
    name,
    price: (usage) =>
      (usage.inputTokens * prices.input +
        usage.outputTokens * prices.output +
        (usage.cacheWriteTokens ?? 0) * (prices.cacheWrite ?? prices.input) +
        (usage.cacheReadTokens ?? 0) * (prices.cacheRead ?? prices.input)) /
      1_000_000,
  };
}

/** Claude Sonnet 4.5's list prices (input 3, output 15, 5-minute cache write 3.75, cache read 0.30 per million). */
export const sonnetLike = pricedModel('sonnet-like', { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 });
/** Claude Haiku 4.5's list prices (1, 5, 1.25, 0.10). */
export const haikuLike = pricedModel('haiku-like', { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 });
