import { InvalidModelPriceError, UnknownModelError, type CostModel, type TokenUsage } from '@ctx/core';
import type { OpenAIModelPrice } from './openai-model-price.js';
import { openAIPrices } from './openai-prices.js';
import { findOpenAIModelPrice } from './find-openai-model-price.js';

/** What one call cost, in US dollars, per billed component. */
export interface OpenAICostBreakdown {
  /** Input tokens not read from the cache. */
  readonly input: number;
  readonly output: number;
  /** Cache writes, at the input price (OpenAI has no separate cache-write price). */
  readonly cacheWrite: number;
  /** Cached input. */
  readonly cacheRead: number;
  /** The sum of the four components. */
  readonly total: number;
}

/** A {@link CostModel} for one OpenAI model, with its prices and a per-component breakdown. */
export interface OpenAICostModel extends CostModel {
  /** The prices this model uses. */
  readonly prices: OpenAIModelPrice;
  /** Total cost in US dollars of `usage` (spec 004 FR-CO-001). */
  price(usage: TokenUsage): number;
  /** Cost in US dollars of each billed component of `usage`. */
  breakdown(usage: TokenUsage): OpenAICostBreakdown;
}

const perMillion = 1_000_000;

/**
 * Creates the cost model of an OpenAI model (spec 004 FR-CO-001): input not read from the cache at the input price,
 * cached input at the cached-input price, output at the output price, summed. `usage.inputTokens` must EXCLUDE cached
 * tokens (the {@link TokenUsage} convention): convert a response's `usage`, where they are included, with
 * `fromOpenAIUsage`.
 *
 * @param model - a model id (canonical, alias or dated snapshot, see `findOpenAIModelPrice`) or prices of your own.
 * @returns the cost model; its `name` is the canonical model id.
 * @throws UnknownModelError when `model` is an id the price table does not have; the message lists the known ids.
 * @throws InvalidModelPriceError when your own prices have a price that is not a finite number ≥ 0, or no model id.
 * @example
 * ```ts
 * const cost = createOpenAICostModel('gpt-4.1-2025-04-14');
 * cost.price(fromOpenAIUsage(completion.usage));
 * ```
 */
export function createOpenAICostModel(model: string | OpenAIModelPrice): OpenAICostModel {
  const prices = typeof model === 'string' ? findOpenAIModelPrice(model) : model;
  // Prices of your own come from outside the type system too (JSON, JavaScript): checked once, here.
  if (typeof model !== 'string') InvalidModelPriceError.check(model, ['inputPerMillion', 'outputPerMillion', 'cacheReadPerMillion']);
  if (prices === undefined) {
    const id = model as string;
    throw new UnknownModelError({
      model: id,
      provider: 'openai',
      known: openAIPrices.map((price) => price.model),
      fix:
        `createOpenAICostModel({ model: '${id}', inputPerMillion, outputPerMillion, cacheReadPerMillion, ` +
        'asOf, source })',
    });
  }
  const breakdown = (usage: TokenUsage): OpenAICostBreakdown => {
    const input = (usage.inputTokens * prices.inputPerMillion) / perMillion;
    const output = (usage.outputTokens * prices.outputPerMillion) / perMillion;
    const cacheWrite = ((usage.cacheWriteTokens ?? 0) * prices.inputPerMillion) / perMillion;
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
