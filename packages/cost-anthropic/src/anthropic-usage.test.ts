import { describe, expect, it } from 'vitest';
import { createAnthropicCostModel } from './anthropic-cost-model.js';
import { fromAnthropicUsage } from './anthropic-usage.js';

describe('fromAnthropicUsage', () => {
  it('FR-CO-002: should take input_tokens as they are: Anthropic already excludes cache reads and writes', () => {
    const usage = fromAnthropicUsage({
      input_tokens: 10,
      output_tokens: 500,
      cache_creation_input_tokens: 2_000,
      cache_read_input_tokens: 90_000,
    });
    expect(usage).toEqual({
      inputTokens: 10,
      outputTokens: 500,
      cacheWriteTokens: 2_000,
      cacheWrite1hTokens: 0,
      cacheReadTokens: 90_000,
    });
  });

  it('FR-CO-002: should split cache writes by TTL when the response reports cache_creation', () => {
    const usage = fromAnthropicUsage({
      input_tokens: 3,
      output_tokens: 7,
      cache_creation_input_tokens: 1_500,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1_000 },
    });
    expect(usage.cacheWriteTokens).toBe(500);
    expect(usage.cacheWrite1hTokens).toBe(1_000);
    // 1-hour writes cost 2× input, 5-minute writes 1.25×: the split changes the bill.
    const cost = createAnthropicCostModel('claude-sonnet-4-5');
    expect(cost.breakdown(usage).cacheWrite).toBeCloseTo((500 * 3.75 + 1_000 * 6) / 1_000_000, 12);
  });

  it('should count absent, negative and non-finite counts as 0', () => {
    expect(fromAnthropicUsage({})).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      cacheReadTokens: 0,
    });
    expect(fromAnthropicUsage({ input_tokens: -5, output_tokens: Number.NaN }).inputTokens).toBe(0);
  });
});
