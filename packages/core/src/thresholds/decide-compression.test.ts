import { describe, expect, it } from 'vitest';
import { decideCompression } from './decide-compression.js';

describe('decideCompression', () => {
  it('FR-TH-003: should compress when the request reaches exactly threshold × contextLimit', () => {
    const decision = decideCompression({ currentTokens: 500, contextLimit: 1000, threshold: 0.5 });
    expect(decision.compress).toBe(true);
    expect(decision.trigger).toBe('threshold');
  });

  it('FR-TH-003: should not compress one token below threshold × contextLimit', () => {
    const decision = decideCompression({ currentTokens: 499, contextLimit: 1000, threshold: 0.5 });
    expect(decision.compress).toBe(false);
    expect(decision.trigger).toBeUndefined();
  });

  it('FR-TH-003: should compress at the boundary with the default 0.85 threshold', () => {
    expect(decideCompression({ currentTokens: 170_000, contextLimit: 200_000, threshold: 0.85 }).compress).toBe(true);
    expect(decideCompression({ currentTokens: 169_999, contextLimit: 200_000, threshold: 0.85 }).compress).toBe(false);
  });

  it('FR-TH-003: should include the pending message tokens in the projection', () => {
    const without = decideCompression({ currentTokens: 450, contextLimit: 1000, threshold: 0.5 });
    const withPending = decideCompression({
      currentTokens: 450,
      pendingTokens: 50,
      contextLimit: 1000,
      threshold: 0.5,
    });
    expect(without.compress).toBe(false);
    expect(withPending.compress).toBe(true);
    expect(withPending.trigger).toBe('threshold');
    expect(withPending.projectedTokens).toBe(500);
  });

  it('FR-TH-003: should compress above the window minus the 10% buffer and the reserved output', () => {
    // allowed = 1000 × 0.9 − 100 = 800; the threshold (1.0 → 1000) is not reached.
    const decision = decideCompression({
      currentTokens: 800,
      pendingTokens: 1,
      contextLimit: 1000,
      threshold: 1,
      reservedOutputTokens: 100,
    });
    expect(decision.compress).toBe(true);
    expect(decision.trigger).toBe('context-window');
    expect(decision.allowedTokens).toBe(800);
  });

  it('FR-TH-003: should not trigger the absolute check at exactly the allowed tokens', () => {
    const decision = decideCompression({
      currentTokens: 800,
      contextLimit: 1000,
      threshold: 1,
      reservedOutputTokens: 100,
    });
    expect(decision.compress).toBe(false);
    expect(decision.trigger).toBeUndefined();
  });

  it('FR-TH-003: should apply the 10% buffer even with no reserved output tokens', () => {
    expect(decideCompression({ currentTokens: 901, contextLimit: 1000, threshold: 1 }).trigger).toBe('context-window');
    expect(decideCompression({ currentTokens: 900, contextLimit: 1000, threshold: 1 }).compress).toBe(false);
  });

  it('FR-TH-003: should report the threshold trigger when both checks are met', () => {
    const decision = decideCompression({
      currentTokens: 950,
      contextLimit: 1000,
      threshold: 0.5,
      reservedOutputTokens: 100,
    });
    expect(decision.trigger).toBe('threshold');
  });

  it('FR-TH-003: should report projected, threshold and allowed tokens and the context percentage', () => {
    const decision = decideCompression({
      currentTokens: 1_500,
      pendingTokens: 500,
      contextLimit: 8_000,
      threshold: 0.75,
      reservedOutputTokens: 1_000,
    });
    expect(decision).toEqual({
      compress: false,
      trigger: undefined,
      projectedTokens: 2_000,
      thresholdTokens: 6_000,
      allowedTokens: 6_200,
      contextPercent: 25,
    });
  });

  it('should report an infinite context percentage for a zero context limit instead of NaN', () => {
    const decision = decideCompression({ currentTokens: 0, contextLimit: 0, threshold: 0.85 });
    expect(decision.contextPercent).toBe(Number.POSITIVE_INFINITY);
  });

  it('FR-TH-003: should trigger at exactly the threshold even when the product is not exact in floating point', () => {
    // 0.55 × 200000 is 110000.00000000001 in binary floating point.
    const decision = decideCompression({ currentTokens: 110_000, contextLimit: 200_000, threshold: 0.55 });
    expect(decision.compress).toBe(true);
    expect(decision.thresholdTokens).toBe(110_000);
  });
});
