import type { AnthropicModelPrice } from './anthropic-model-price.js';

const pricingPage = 'https://platform.claude.com/docs/en/about-claude/pricing';
const pricingPageTwelveModels = 'https://platform.claude.com/docs/en/docs/about-claude/pricing';
const readOn = '2026-11-25';

/** The five prices of a model, in the order of the columns of Anthropic's "Model pricing" table. */
function row(
  model: string,
  aliases: readonly string[],
  [inputPerMillion, cacheWrite5mPerMillion, cacheWrite1hPerMillion, cacheReadPerMillion, outputPerMillion]: readonly [
    number,
    number,
    number,
    number,
    number,
  ],
  source: string,
): AnthropicModelPrice {
  return {
    model,
    aliases,
    inputPerMillion,
    outputPerMillion,
    cacheWrite5mPerMillion,
    cacheWrite1hPerMillion,
    cacheReadPerMillion,
    asOf: readOn,
    source,
  };
}

/**
 * Standard (not batch, not long-context, not fast-mode) API prices of Claude models, one entry per model, as read from
 * Anthropic's pricing page on the `asOf` date. Prices change: pass your own {@link AnthropicModelPrice} to
 * `createAnthropicCostModel` when they do.
 */
export const anthropicPrices: readonly AnthropicModelPrice[] = [
  row('claude-opus-4-8', [], [5, 6.25, 10, 0.5, 25], pricingPage),
  row('claude-opus-4-7', [], [5, 6.25, 10, 0.5, 25], pricingPage),
  row('claude-opus-4-6', [], [5, 6.25, 10, 0.5, 25], pricingPageTwelveModels),
  row('claude-opus-4-5', ['claude-opus-4-5-20251101'], [5, 6.25, 10, 0.5, 25], pricingPageTwelveModels),
  row('claude-opus-4-1', ['claude-opus-4-1-20250805'], [15, 18.75, 30, 1.5, 75], pricingPageTwelveModels),
  row(
    'claude-opus-4-0',
    ['claude-opus-4', 'claude-opus-4-20250514'],
    [15, 18.75, 30, 1.5, 75],
    pricingPageTwelveModels,
  ),
  row('claude-sonnet-4-6', [], [3, 3.75, 6, 0.3, 15], pricingPageTwelveModels),
  row('claude-sonnet-4-5', ['claude-sonnet-4-5-20250929'], [3, 3.75, 6, 0.3, 15], pricingPageTwelveModels),
  row(
    'claude-sonnet-4-0',
    ['claude-sonnet-4', 'claude-sonnet-4-20250514'],
    [3, 3.75, 6, 0.3, 15],
    pricingPageTwelveModels,
  ),
  row('claude-3-7-sonnet-latest', ['claude-3-7-sonnet-20250219'], [3, 3.75, 6, 0.3, 15], pricingPageTwelveModels),
  row('claude-haiku-4-5', ['claude-haiku-4-5-20251001'], [1, 1.25, 2, 0.1, 5], pricingPageTwelveModels),
  row('claude-3-5-haiku-latest', ['claude-3-5-haiku-20241022'], [0.8, 1, 1.6, 0.08, 4], pricingPageTwelveModels),
  row('claude-3-opus-latest', ['claude-3-opus-20240229'], [15, 18.75, 30, 1.5, 75], pricingPageTwelveModels),
  row('claude-3-haiku-20240307', [], [0.25, 0.3, 0.5, 0.03, 1.25], pricingPageTwelveModels),
];
