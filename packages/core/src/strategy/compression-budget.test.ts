import { describe, expect, it } from 'vitest';
import { COMPRESSION_TARGET_FACTOR, createCompressionBudget, getHistoryTokenTarget } from './compression-budget.js';

describe('COMPRESSION_TARGET_FACTOR', () => {
  it('BR-THRESH-004: should be 0.6', () => {
    expect(COMPRESSION_TARGET_FACTOR).toBe(0.6);
  });
});

describe('createCompressionBudget', () => {
  it('BR-THRESH-004: should target threshold × contextLimit × 0.6 tokens', () => {
    expect(createCompressionBudget({ contextLimit: 200_000, threshold: 0.85 })).toEqual({
      contextLimit: 200_000,
      threshold: 0.85,
      overheadTokens: 0,
      targetTokens: 102_000,
    });
  });

  it('BR-THRESH-004: should round a fractional target down', () => {
    // 0.5 × 1001 × 0.6 = 300.3
    expect(createCompressionBudget({ contextLimit: 1001, threshold: 0.5 }).targetTokens).toBe(300);
    // 0.85 × 128000 × 0.6 = 65280; 0.7 × 999 × 0.6 = 419.58
    expect(createCompressionBudget({ contextLimit: 128_000, threshold: 0.85 }).targetTokens).toBe(65_280);
    expect(createCompressionBudget({ contextLimit: 999, threshold: 0.7 }).targetTokens).toBe(419);
  });

  it('BR-THRESH-004: should prefer an explicit target over the computed one', () => {
    const budget = createCompressionBudget({ contextLimit: 200_000, threshold: 0.85, targetTokens: 50_000 });
    expect(budget.targetTokens).toBe(50_000);
  });

  it('should keep the overhead tokens it is given', () => {
    expect(createCompressionBudget({ contextLimit: 1000, threshold: 0.5, overheadTokens: 40 }).overheadTokens).toBe(40);
  });

  it('BR-THRESH-004: should not lose a token to floating point (0.29 × 200000 × 0.6 = 34800)', () => {
    expect(createCompressionBudget({ contextLimit: 200_000, threshold: 0.29 }).targetTokens).toBe(34_800);
    expect(createCompressionBudget({ contextLimit: 200_000, threshold: 0.57 }).targetTokens).toBe(68_400);
  });
});

describe('getHistoryTokenTarget', () => {
  it('BR-THRESH-004: should leave the target minus the system and tool overhead for the history', () => {
    const budget = createCompressionBudget({ contextLimit: 200_000, threshold: 0.85, overheadTokens: 12_000 });
    expect(getHistoryTokenTarget(budget)).toBe(90_000);
  });

  it('should return the whole target when there is no overhead', () => {
    expect(getHistoryTokenTarget(createCompressionBudget({ contextLimit: 1000, threshold: 1 }))).toBe(600);
  });

  it('should never go below 0 when the overhead alone exceeds the target', () => {
    const budget = createCompressionBudget({ contextLimit: 1000, threshold: 0.5, overheadTokens: 5000 });
    expect(getHistoryTokenTarget(budget)).toBe(0);
    expect(getHistoryTokenTarget({ ...budget, overheadTokens: budget.targetTokens })).toBe(0);
  });
});
