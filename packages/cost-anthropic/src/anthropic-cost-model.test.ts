import { CtxError, UnknownModelError } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { createAnthropicCostModel } from './anthropic-cost-model.js';
import type { AnthropicModelPrice } from './anthropic-model-price.js';
import { anthropicPrices } from './anthropic-prices.js';

const million = 1_000_000;

describe('createAnthropicCostModel', () => {
  it('should price 1,000,000 input and 1,000,000 output tokens on Sonnet 4.5 at $3 + $15 (hand-checked)', () => {
    const cost = createAnthropicCostModel('claude-sonnet-4-5');
    expect(cost.price({ inputTokens: million, outputTokens: million })).toBeCloseTo(18, 10);
  });

  it('should price cache reads, 5-minute and 1-hour writes on Opus 4.6 as the page says (hand-checked)', () => {
    // $0.50 × 0.01 + $6.25 × 0.002 + $10 × 0.001 = 0.005 + 0.0125 + 0.01
    const cost = createAnthropicCostModel('claude-opus-4-6');
    const usage = {
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 10_000,
      cacheWriteTokens: 2_000,
      cacheWrite1hTokens: 1_000,
    };
    expect(cost.price(usage)).toBeCloseTo(0.0275, 12);
  });

  it('FR-CO-001: should price each component at its own price and sum them', () => {
    const cost = createAnthropicCostModel('claude-haiku-4-5');
    const usage = {
      inputTokens: million,
      outputTokens: million,
      cacheWriteTokens: million,
      cacheWrite1hTokens: million,
      cacheReadTokens: million,
    };
    const breakdown = cost.breakdown(usage);
    expect(breakdown.input).toBeCloseTo(1, 10);
    expect(breakdown.output).toBeCloseTo(5, 10);
    expect(breakdown.cacheWrite).toBeCloseTo(1.25 + 2, 10);
    expect(breakdown.cacheRead).toBeCloseTo(0.1, 10);
    expect(breakdown.total).toBeCloseTo(1 + 5 + 3.25 + 0.1, 10);
    expect(cost.price(usage)).toBe(breakdown.total);
  });

  it('FR-CO-001: should cost nothing for an empty usage and leave absent cache counts at 0', () => {
    const cost = createAnthropicCostModel('claude-sonnet-4-0');
    expect(cost.price({ inputTokens: 0, outputTokens: 0 })).toBe(0);
    expect(cost.breakdown({ inputTokens: 1000, outputTokens: 0 })).toEqual({
      input: 0.003,
      output: 0,
      cacheWrite: 0,
      cacheRead: 0,
      total: 0.003,
    });
  });

  it('should resolve dated ids to their model and name the cost model by the canonical id', () => {
    expect(createAnthropicCostModel('claude-sonnet-4-5-20250929').name).toBe('claude-sonnet-4-5');
    expect(createAnthropicCostModel('claude-opus-4-20250514').name).toBe('claude-opus-4-0');
    expect(createAnthropicCostModel('claude-3-5-haiku-20241022').name).toBe('claude-3-5-haiku-latest');
    const cost = createAnthropicCostModel('claude-haiku-4-5-20251001');
    expect(cost.specificationVersion).toBe('v1');
    expect(cost.prices.inputPerMillion).toBe(1);
  });

  it('should throw UnknownModelError naming the known models and how to pass your own prices', () => {
    let caught: unknown;
    try {
      createAnthropicCostModel('claude-unreleased-9');
    } catch (error) {
      caught = error;
    }
    expect(UnknownModelError.isInstance(caught)).toBe(true);
    expect(CtxError.isInstance(caught)).toBe(true);
    const error = caught as UnknownModelError;
    expect(error.model).toBe('claude-unreleased-9');
    expect(error.provider).toBe('anthropic');
    expect(error.known).toEqual(anthropicPrices.map((price) => price.model));
    expect(error.message).toMatch(/^No price for model "claude-unreleased-9" \(anthropic\); known: claude-opus-4-8, /);
    expect(error.message).toContain('claude-sonnet-4-5');
    expect(error.message).toContain("Pass your own prices: createAnthropicCostModel({ model: 'claude-unreleased-9'");
  });

  it('should accept a prices object of your own and use it as is', () => {
    const custom: AnthropicModelPrice = {
      model: 'claude-custom',
      inputPerMillion: 2,
      outputPerMillion: 10,
      cacheWrite5mPerMillion: 2.5,
      cacheWrite1hPerMillion: 4,
      cacheReadPerMillion: 0.2,
      asOf: '2026-11-25',
      source: 'https://example.com/our-negotiated-prices',
    };
    const cost = createAnthropicCostModel(custom);
    expect(cost.name).toBe('claude-custom');
    expect(cost.prices).toBe(custom);
    expect(cost.price({ inputTokens: million, outputTokens: million, cacheReadTokens: million })).toBeCloseTo(12.2, 10);
  });
});

describe('createAnthropicCostModel with prices of your own', () => {
  it('should refuse a price that is not a finite number ≥ 0, naming every bad field', async () => {
    const { InvalidModelPriceError } = await import('@ctx/core');
    const bad = { model: 'my-claude', inputPerMillion: -1, outputPerMillion: Number.NaN, cacheWrite5mPerMillion: 1, cacheWrite1hPerMillion: 2, cacheReadPerMillion: 0.1, asOf: '2026-11-25', source: 'https://example.test' };
    let error: unknown;
    try {
      createAnthropicCostModel(bad);
    } catch (caught) {
      error = caught;
    }
    expect(InvalidModelPriceError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('inputPerMillion: Expected USD per million tokens, a finite number ≥ 0, got -1');
    expect((error as Error).message).toContain('outputPerMillion:');
  });
});
