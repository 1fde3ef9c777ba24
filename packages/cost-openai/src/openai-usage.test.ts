import { describe, expect, it } from 'vitest';
import { fromOpenAIUsage } from './openai-usage.js';

describe('fromOpenAIUsage', () => {
  it('FR-CO-002: should subtract cached tokens from Chat Completions prompt_tokens, which include them', () => {
    const usage = { prompt_tokens: 12_033, completion_tokens: 44, prompt_tokens_details: { cached_tokens: 11_904 } };
    expect(fromOpenAIUsage(usage)).toEqual({ inputTokens: 129, outputTokens: 44, cacheReadTokens: 11_904, cacheWriteTokens: 0 });
  });

  it('FR-CO-002: should read the Responses API shape the same way', () => {
    expect(
      fromOpenAIUsage({ input_tokens: 12_033, output_tokens: 44, input_tokens_details: { cached_tokens: 11_904 } }),
    ).toEqual({ inputTokens: 129, outputTokens: 44, cacheReadTokens: 11_904, cacheWriteTokens: 0 });
  });

  it('FR-CO-002: should never make input negative when cached exceeds the total', () => {
    const usage = fromOpenAIUsage({
      prompt_tokens: 100,
      completion_tokens: 1,
      prompt_tokens_details: { cached_tokens: 150 },
    });
    expect(usage.inputTokens).toBe(0);
    expect(usage.cacheReadTokens).toBe(150);
  });

  it('should treat absent details, null details and absent counts as 0 cached', () => {
    expect(fromOpenAIUsage({ prompt_tokens: 10, completion_tokens: 2 })).toEqual({
      inputTokens: 10,
      outputTokens: 2,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(fromOpenAIUsage({ input_tokens: 10, input_tokens_details: null }).inputTokens).toBe(10);
    expect(fromOpenAIUsage({})).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});
