import type { OpenAIModelPrice } from './openai-model-price.js';

const readOn = '2026-11-25';

/**
 * Standard-tier (not batch, flex or priority) API prices of OpenAI text models, one entry per model, as read on the
 * `asOf` date from the page in `source`. gpt-5-mini and gpt-5-nano come from OpenAI's own model pages; the others
 * from secondary pages quoting OpenAI's pricing page (see the package README). Prices change: pass your own
 * {@link OpenAIModelPrice} to `createOpenAICostModel` when they do.
 */
export const openAIPrices: readonly OpenAIModelPrice[] = [
  {
    model: 'gpt-5-mini',
    aliases: ['gpt-5-mini-2025-08-07'],
    inputPerMillion: 0.25,
    cacheReadPerMillion: 0.025,
    outputPerMillion: 2,
    asOf: readOn,
    source: 'https://developers.openai.com/ko-KR/api/docs/models/gpt-5-mini',
  },
  {
    model: 'gpt-5-nano',
    aliases: ['gpt-5-nano-2025-08-07'],
    inputPerMillion: 0.05,
    cacheReadPerMillion: 0.005,
    outputPerMillion: 0.4,
    asOf: readOn,
    source: 'https://developers.openai.com/api/docs/models/gpt-5-nano',
  },
  {
    model: 'gpt-4.1',
    aliases: ['gpt-4.1-2025-04-14'],
    inputPerMillion: 2,
    cacheReadPerMillion: 0.5,
    outputPerMillion: 8,
    asOf: readOn,
    source: 'https://chatai.guide/models/gpt-4-1/',
  },
  {
    model: 'gpt-4o',
    inputPerMillion: 2.5,
    cacheReadPerMillion: 1.25,
    outputPerMillion: 10,
    asOf: readOn,
    source: 'https://raw.githubusercontent.com/simonw/llm-prices/refs/heads/main/data/openai.json',
  },
  {
    model: 'gpt-4o-mini',
    aliases: ['gpt-4o-mini-2024-07-18'],
    inputPerMillion: 0.15,
    cacheReadPerMillion: 0.075,
    outputPerMillion: 0.6,
    asOf: readOn,
    source: 'https://raw.githubusercontent.com/simonw/llm-prices/refs/heads/main/data/openai.json',
  },
  {
    model: 'o4-mini',
    aliases: ['o4-mini-2025-04-16'],
    inputPerMillion: 1.1,
    cacheReadPerMillion: 0.275,
    outputPerMillion: 4.4,
    asOf: readOn,
    source: 'https://www.helicone.ai/model/o4-mini',
  },
];
