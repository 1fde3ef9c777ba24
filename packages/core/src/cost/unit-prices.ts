import type { CostModel } from '../strategy/cost-model.js';

/** What one token costs, in US dollars, for each way a provider bills it. */
export interface UnitPrices {
  /** An input token neither read from nor written to the prompt cache. */
  readonly input: number;
  readonly output: number;
  /** An input token read from the prompt cache. */
  readonly cacheRead: number;
  /** An input token written to the prompt cache (at the input price for providers that do not charge writes). */
  readonly cacheWrite: number;
}

const million = 1_000_000;

/**
 * Reads a cost model's price per token for each component by pricing a million tokens of each alone, so any
 * {@link CostModel} works, including your own.
 *
 * @example
 * ```ts
 * unitPricesOf(createAnthropicCostModel('claude-sonnet-4-5')).cacheRead; // 3e-7 (USD per token)
 * ```
 */
export function unitPricesOf(costModel: CostModel): UnitPrices {
  const per = (usage: Parameters<CostModel['price']>[0]) => costModel.price(usage) / million;
  return {
    input: per({ inputTokens: million, outputTokens: 0 }),
    output: per({ inputTokens: 0, outputTokens: million }),
    cacheRead: per({ inputTokens: 0, outputTokens: 0, cacheReadTokens: million }),
    cacheWrite: per({ inputTokens: 0, outputTokens: 0, cacheWriteTokens: million }),
  };
}
