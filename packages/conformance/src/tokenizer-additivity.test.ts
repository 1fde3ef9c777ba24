import type { Tokenizer } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { checkAdditiveAtLineStarts } from './tokenizer-additivity.js';

const tokenizerOf = (countTokens: (text: string) => number): Tokenizer => ({ specificationVersion: 'v1', name: 'test', countTokens });

describe('checkAdditiveAtLineStarts', () => {
  it('should find nothing wrong with a tokenizer whose counts add up everywhere', () => {
    const report = checkAdditiveAtLineStarts({ tokenizer: tokenizerOf((text) => text.length), runs: 500 });
    expect(report.counterexample).toBeUndefined();
    expect(report.runs).toBe(500);
  });

  it('should report a pair whose counts do not add up, with the three counts', () => {
    // Rounding up per call: two short texts cost more apart than together.
    const report = checkAdditiveAtLineStarts({ tokenizer: tokenizerOf((text) => Math.ceil(text.length / 4)), runs: 500 });
    const found = report.counterexample;
    expect(found).toBeDefined();
    expect(found?.head.endsWith('\n')).toBe(true);
    expect((found?.headTokens ?? 0) + (found?.tailTokens ?? 0)).not.toBe(found?.wholeTokens);
  });

  it('should replay the same run from its seed', () => {
    const tokenizer = tokenizerOf((text) => Math.ceil(text.length / 3));
    const first = checkAdditiveAtLineStarts({ tokenizer, runs: 200, seed: 42 });
    expect(checkAdditiveAtLineStarts({ tokenizer, runs: 200, seed: first.seed })).toEqual(first);
  });
});
