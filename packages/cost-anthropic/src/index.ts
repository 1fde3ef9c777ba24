export type { AnthropicModelPrice } from './anthropic-model-price.js';
export { anthropicPrices } from './anthropic-prices.js';
export { fromAnthropicUsage, type AnthropicApiUsage, type AnthropicUsage } from './anthropic-usage.js';
export { findAnthropicModelPrice } from './find-anthropic-model-price.js';
export {
  createAnthropicCostModel,
  type AnthropicCostBreakdown,
  type AnthropicCostModel,
} from './anthropic-cost-model.js';
