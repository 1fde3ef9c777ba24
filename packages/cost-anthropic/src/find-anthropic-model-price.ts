import type { AnthropicModelPrice } from './anthropic-model-price.js';
import { anthropicPrices } from './anthropic-prices.js';

/** Anthropic's dated snapshot suffix: `-20250929`, or `@20250929` on Google Cloud. */
const dateSuffix = /[-@]\d{8}$/;

/** The names of an entry, each also without its `-latest` suffix. */
function namesOf(price: AnthropicModelPrice): string[] {
  const names = [price.model, ...(price.aliases ?? [])];
  const undated = names.filter((name) => name.endsWith('-latest')).map((name) => name.slice(0, -'-latest'.length));
  return [...names, ...undated];
}

/**
 * Finds the price of an Anthropic model in {@link anthropicPrices}: by canonical id, by alias, or, for a dated id
 * such as `claude-sonnet-4-5-20250929` or `claude-3-5-haiku-20241022`, by its undated base.
 *
 * @param model - a model id as the API or a transcript reports it.
 * @returns the price, or `undefined` when the table has no such model.
 */
export function findAnthropicModelPrice(model: string): AnthropicModelPrice | undefined {
  const wanted = model.trim();
  const base = wanted.replace(dateSuffix, '');
  return (
    anthropicPrices.find((price) => namesOf(price).includes(wanted)) ??
    anthropicPrices.find((price) => namesOf(price).includes(base))
  );
}
