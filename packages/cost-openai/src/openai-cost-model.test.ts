import { CtxError, UnknownModelError } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { createOpenAICostModel } from './openai-cost-model.js';
import type { OpenAIModelPrice } from './openai-model-price.js';
import { openAIPrices } from './openai-prices.js';
import { fromOpenAIUsage } from './openai-usage.js';

const million = 1_000_000;

describe('createOpenAICostModel', () => {
  it('should price 1,000,000 input and 1,000,000 output tokens on gpt-5-mini at $0.25 + $2 (hand-checked)', () => {
    const cost = createOpenAICostModel('gpt-5-mini');
    expect(cost.price({ inputTokens: million, outputTokens: million })).toBeCloseTo(2.25, 10);
  });

  it('should price a Chat Completions response with 800 of 1,000 prompt tokens cached on gpt-4.1 (hand-checked)', () => {
    // 200 × $2 + 800 × $0.50 + 100 × $8, per million: 0.0004 + 0.0004 + 0.0008
    const usage = fromOpenAIUsage({
      prompt_tokens: 1_000,
      completion_tokens: 100,
      prompt_tokens_details: { cached_tokens: 800 },
    });
    expect(createOpenAICostModel('gpt-4.1').price(usage)).toBeCloseTo(0.0016, 12);
  });

  it('FR-CO-001: should price each component at its own price and sum them, cache writes at the input price', () => {
    const cost = createOpenAICostModel('gpt-4o-mini');
    const breakdown = cost.breakdown({
      inputTokens: million,
      outputTokens: million,
      cacheReadTokens: million,
      cacheWriteTokens: million,
    });
    expect(breakdown.input).toBeCloseTo(0.15, 10);
    expect(breakdown.output).toBeCloseTo(0.6, 10);
    expect(breakdown.cacheRead).toBeCloseTo(0.075, 10);
    expect(breakdown.cacheWrite).toBeCloseTo(0.15, 10);
    expect(breakdown.total).toBeCloseTo(0.15 + 0.6 + 0.075 + 0.15, 10);
    expect(cost.price({ inputTokens: 0, outputTokens: 0 })).toBe(0);
  });

  it('should resolve dated snapshot ids and gateway-prefixed ids, and name the cost model by the canonical id', () => {
    expect(createOpenAICostModel('gpt-4.1-2025-04-14').name).toBe('gpt-4.1');
    expect(createOpenAICostModel('gpt-4o-2024-11-20').name).toBe('gpt-4o');
    expect(createOpenAICostModel('openai/o4-mini').name).toBe('o4-mini');
    expect(createOpenAICostModel('gpt-5-nano-2025-08-07').specificationVersion).toBe('v1');
  });

  it('should not price gpt-4o-2024-05-13 at the later gpt-4o price', () => {
    expect(() => createOpenAICostModel('gpt-4o-2024-05-13')).toThrow(/No price for model "gpt-4o-2024-05-13"/);
  });

  it('should throw UnknownModelError naming the known models and how to pass your own prices', () => {
    let caught: unknown;
    try {
      createOpenAICostModel('gpt-9');
    } catch (error) {
      caught = error;
    }
    expect(UnknownModelError.isInstance(caught)).toBe(true);
    expect(CtxError.isInstance(caught)).toBe(true);
    const error = caught as UnknownModelError;
    expect(error.provider).toBe('openai');
    expect(error.known).toEqual(openAIPrices.map((price) => price.model));
    expect(error.message).toMatch(/^No price for model "gpt-9" \(openai\); known: gpt-5-mini, gpt-5-nano, gpt-4\.1, /);
    expect(error.message).toContain("Pass your own prices: createOpenAICostModel({ model: 'gpt-9'");
  });

  it('should accept a prices object of your own and use it as is', () => {
    const custom: OpenAIModelPrice = {
      model: 'my-fine-tune',
      inputPerMillion: 3,
      outputPerMillion: 12,
      cacheReadPerMillion: 0.75,
      asOf: '2026-11-25',
      source: 'https://example.com/our-prices',
    };
    const cost = createOpenAICostModel(custom);
    expect(cost.name).toBe('my-fine-tune');
    expect(cost.prices).toBe(custom);
    const usage = { inputTokens: million, outputTokens: million, cacheReadTokens: million };
    expect(cost.price(usage)).toBeCloseTo(15.75, 10);
  });
});

describe('createOpenAICostModel with prices of your own', () => {
  it('should refuse prices without a model id or with a negative price', async () => {
    const { InvalidModelPriceError } = await import('@ctx/core');
    expect(() => createOpenAICostModel({ model: '', inputPerMillion: 1, outputPerMillion: 2, cacheReadPerMillion: -0.5, asOf: '2026-11-25', source: 'https://example.test' })).toThrow(
      /model: Expected the model id[\s\S]*cacheReadPerMillion: Expected USD per million tokens/,
    );
    let error: unknown;
    try {
      createOpenAICostModel({ model: 'x', inputPerMillion: 1, outputPerMillion: 2, cacheReadPerMillion: -0.5, asOf: '2026-11-25', source: 'https://example.test' });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidModelPriceError.isInstance(error)).toBe(true);
  });
});
