import type { OpenAIModelPrice } from './openai-model-price.js';
import { openAIPrices } from './openai-prices.js';

/** OpenAI's dated snapshot suffix, e.g. `-2025-04-14`. */
const dateSuffix = /-\d{4}-\d{2}-\d{2}$/;

/**
 * Dated snapshots billed differently from the undated model they share a base with: these must not fall back to the
 * base price (gpt-4o-2024-05-13 was launched at a higher price than later gpt-4o snapshots).
 */
const snapshotsPricedApart: ReadonlySet<string> = new Set(['gpt-4o-2024-05-13']);

/**
 * Finds the price of an OpenAI model in {@link openAIPrices}: by canonical id, by alias, or, for a dated snapshot id
 * such as `gpt-4.1-2025-04-14`, by its undated base. An `openai/` prefix (as gateways write it) is ignored.
 *
 * @param model - a model id as the API or a transcript reports it.
 * @returns the price, or `undefined` when the table has no such model.
 */
export function findOpenAIModelPrice(model: string): OpenAIModelPrice | undefined {
  const wanted = model.trim().replace(/^openai\//, '');
  const base = snapshotsPricedApart.has(wanted) ? wanted : wanted.replace(dateSuffix, '');
  const names = (price: OpenAIModelPrice): readonly string[] => [price.model, ...(price.aliases ?? [])];
  return (
    openAIPrices.find((price) => names(price).includes(wanted)) ??
    openAIPrices.find((price) => names(price).includes(base))
  );
}
