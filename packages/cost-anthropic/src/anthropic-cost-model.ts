import { InvalidModelPriceError, UnknownModelError, type CostModel } from '@ctx/core';
import type { AnthropicModelPrice } from './anthropic-model-price.js';
import { anthropicPrices } from './anthropic-prices.js';
import type { AnthropicUsage } from './anthropic-usage.js';
import { findAnthropicModelPrice } from './find-anthropic-model-price.js';

/** What one call cost, in US dollars, per billed component. */
export interface AnthropicCostBreakdown {
  /** Base input tokens. */
  readonly input: number;
  readonly output: number;
  /** 5-minute and 1-hour cache writes together. */
  readonly cacheWrite: number;
  readonly cacheRead: number;
  /** The sum of the four components. */
  readonly total: number;
}

/** A {@link CostModel} for one Anthropic model, with its prices and a per-component breakdown. */
export interface AnthropicCostModel extends CostModel {
  /** The prices this model uses. */
  readonly prices: AnthropicModelPrice;
  /** Total cost in US dollars of `usage` (spec 004 FR-CO-001). */
  price(usage: AnthropicUsage): number;
  /** Cost in US dollars of each billed component of `usage`. */
  breakdown(usage: AnthropicUsage): AnthropicCostBreakdown;
}

const perMillion = 1_000_000;

/**
 * Creates the cost model of an Anthropic model (spec 004 FR-CO-001): each component (base input, output, 5-minute
 * and 1-hour cache writes, cache reads) at its own price, summed. Usage must be in Anthropic's accounting, where input
 * excludes cached tokens: convert a response's `usage` with `fromAnthropicUsage`.
 *
 * @param model - a model id (canonical, alias or dated, see `findAnthropicModelPrice`) or prices of your own.
 * @returns the cost model; its `name` is the canonical model id.
 * @throws UnknownModelError when `model` is an id the price table does not have; the message lists the known ids.
 * @throws InvalidModelPriceError when your own prices have a price that is not a finite number ≥ 0, or no model id.
 * @example
 * ```ts
 * const cost = createAnthropicCostModel('claude-sonnet-4-5-20250929');
 * cost.price({ inputTokens: 1_000_000, outputTokens: 1_000_000 }); // 18 (USD)
 * ```
 */
export function createAnthropicCostModel(model: string | AnthropicModelPrice): AnthropicCostModel {
  const prices = typeof model === 'string' ? findAnthropicModelPrice(model) : model;
  // Prices of your own come from outside the type system too (JSON, JavaScript): checked once, here.
  if (typeof model !== 'string') InvalidModelPriceError.check(model, ['inputPerMillion', 'outputPerMillion', 'cacheWrite5mPerMillion', 'cacheWrite1hPerMillion', 'cacheReadPerMillion']);
  if (prices === undefined) {
    const id = model as string;
    throw new UnknownModelError({
      model: id,
      provider: 'anthropic',
      known: anthropicPrices.map((price) => price.model),
      fix:
        `createAnthropicCostModel({ model: '${id}', inputPerMillion, outputPerMillion, cacheWrite5mPerMillion, ` +
        'cacheWrite1hPerMillion, cacheReadPerMillion, asOf, source })',
    });
  }
  const breakdown = (usage: AnthropicUsage): AnthropicCostBreakdown => {
    const input = (usage.inputTokens * prices.inputPerMillion) / perMillion;
    const output = (usage.outputTokens * prices.outputPerMillion) / perMillion;
    const cacheWrite =
      ((usage.cacheWriteTokens ?? 0) * prices.cacheWrite5mPerMillion +
        (usage.cacheWrite1hTokens ?? 0) * prices.cacheWrite1hPerMillion) /
      perMillion;
    const cacheRead = ((usage.cacheReadTokens ?? 0) * prices.cacheReadPerMillion) / perMillion;
    return { input, output, cacheWrite, cacheRead, total: input + output + cacheWrite + cacheRead };
  };
  return {
    specificationVersion: 'v1',
    name: prices.model,
    prices,
    price: (usage) => breakdown(usage).total,
    breakdown,
  };
}
