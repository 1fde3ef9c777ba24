export type { OpenAIModelPrice } from './openai-model-price.js';
export { openAIPrices } from './openai-prices.js';
export {
  fromOpenAIUsage,
  type OpenAIChatCompletionsUsage,
  type OpenAIResponsesUsage,
} from './openai-usage.js';
export { findOpenAIModelPrice } from './find-openai-model-price.js';
export { createOpenAICostModel, type OpenAICostBreakdown, type OpenAICostModel } from './openai-cost-model.js';
