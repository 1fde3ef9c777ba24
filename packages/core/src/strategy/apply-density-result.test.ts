import { describe, expect, it } from 'vitest';
import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { parseHistory } from '../history/parse-history.js';
import { ai, human, toolCall, toolResult } from '../test-support/entries.js';
import { applyDensityResultToHistory } from './apply-density-result.js';
import type { DensityResult } from './density-result.js';

const history = parseHistory([human('Read a.ts'), toolCall('a'), toolResult('a', 'export {}'), ai('It is empty.')]);

/** Applies a value that claims to be a density result and returns what it threw (or fails when it did not throw). */
function rejectionOf(result: unknown, strategyName = 'broken'): CompressionStrategyError {
  const snapshot = JSON.stringify(history);
  let caught: unknown;
  try {
    applyDensityResultToHistory(history, result as DensityResult, strategyName);
  } catch (error) {
    caught = error;
  }
  // Atomic: whatever was wrong, the history it was given is untouched.
  expect(JSON.stringify(history)).toBe(snapshot);
  expect(caught, 'expected a rejection').toBeDefined();
  expect(caught).not.toBeInstanceOf(TypeError);
  expect(CompressionStrategyError.isInstance(caught)).toBe(true);
  return caught as CompressionStrategyError;
}

describe('applyDensityResultToHistory', () => {
  describe('malformed results raise CompressionStrategyError saying what was expected and found', () => {
    it.each([
      ['null', null, 'found null'],
      ['undefined', undefined, 'found undefined'],
      ['a number', 42, 'found 42'],
      ['an array', [1, 2], 'found an array of 2'],
    ])('should reject %s as the result', (_label, value, found) => {
      const error = rejectionOf(value);
      expect(error.message).toContain('expected an object { removals, replacements, metadata }');
      expect(error.message).toContain(found);
      expect(error.message).toContain('strategy "broken"');
      expect(error.strategyName).toBe('broken');
    });

    it.each([
      ['null', null, 'found null'],
      ['missing', undefined, 'found undefined'],
      ['a Set', new Set([1]), 'found a Set'],
      ['a string', '1,2', 'found "1,2"'],
      ['an object', { 0: 1 }, 'found an object'],
    ])('should reject removals that are %s', (_label, removals, found) => {
      const error = rejectionOf({ removals, replacements: new Map(), metadata: {} });
      expect(error.message).toContain('expected removals to be an array of entry indices');
      expect(error.message).toContain(found);
    });

    it.each([
      ['null', null, 'found null'],
      ['missing', undefined, 'found undefined'],
      ['a plain object', { 1: human('x') }, 'found an object'],
      ['an array of pairs', [[1, human('x')]], 'found an array of 1'],
    ])('should reject replacements that are %s', (_label, replacements, found) => {
      const error = rejectionOf({ removals: [], replacements, metadata: {} });
      expect(error.message).toContain('expected replacements to be a Map from entry index to entry');
      expect(error.message).toContain(found);
    });

    it('should reject indices that are not integers, naming them (ERR-011/012 territory)', () => {
      const error = rejectionOf({ removals: [1.5, '3', null], replacements: new Map([[Number.NaN, human('x')]]), metadata: {} });
      expect(error.message).toContain('expected integer indices, found 1.5, "3", null, NaN');
      expect(error.indices).toEqual([1.5, Number.NaN]);
    });

    it('should reject a sparse removals array (its holes are not indices)', () => {
      // eslint-disable-next-line no-sparse-arrays -- the hole is the point
      const error = rejectionOf({ removals: [3, , 0], replacements: new Map(), metadata: {} });
      expect(error.message).toContain('found undefined');
    });

    it('should reject a replacement explicitly set to undefined instead of silently keeping the entry', () => {
      const error = rejectionOf({ removals: [], replacements: new Map([[3, undefined]]), metadata: {} });
      expect(error.message).toContain('replacement for index 3 is not a valid entry');
      expect(error.indices).toEqual([3]);
    });

    it('should say an empty history has no valid index', () => {
      const error = (() => {
        try {
          applyDensityResultToHistory([], { removals: [0], replacements: new Map(), metadata: {} });
        } catch (caught) {
          return caught as CompressionStrategyError;
        }
        throw new Error('expected a rejection');
      })();
      expect(error.message).toContain('expected none: the history is empty');
    });
  });

  describe('long lists of offending indices are capped in the message', () => {
    it('should keep the message of a million out-of-range removals under 2 KB, naming the first 20 and counting the rest', () => {
      const removals = Array.from({ length: 1_000_000 }, (_, index) => index + 100);
      const error = rejectionOf({ removals, replacements: new Map(), metadata: {} });
      expect(error.message.length).toBeLessThan(2048);
      expect(error.message).toContain('removal indices 100, 101,');
      expect(error.message).toContain('119 … and 999980 more');
      expect(error.message).not.toContain('120,');
      expect(error.indices).toHaveLength(1_000_000);
    });

    it('should cap a million non-integer or duplicate indices the same way', () => {
      const fractions = Array.from({ length: 1_000_000 }, (_, index) => index + 0.5);
      expect(rejectionOf({ removals: fractions, replacements: new Map(), metadata: {} }).message.length).toBeLessThan(2048);
      const duplicates = Array.from({ length: 1_000_000 }, (_, index) => index % 2);
      const duplicateError = rejectionOf({ removals: duplicates, replacements: new Map(), metadata: {} });
      expect(duplicateError.message).toContain('removal indices 0, 1 appear more than once');
    });

    it('should cap the list of pairing problems', () => {
      const calls: HistoryEntry[] = Array.from({ length: 30 }, (_, index) => [toolCall(`c${index}`), toolResult(`c${index}`, 'x')]).flat();
      const long = parseHistory([human('Go'), ...calls, ai('Done.')]);
      // Remove every result but keep its call: 30 unanswered calls.
      const removals = long.flatMap((entry, index) => (entry.speaker === 'tool' ? [index] : []));
      let message = '';
      try {
        applyDensityResultToHistory(long, { removals, replacements: new Map(), metadata: {} });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain('would break tool call / response pairing');
      expect(message).toContain('… and 10 more');
      expect(message.split('\n')).toHaveLength(1 + 20 + 1);
    });
  });

  it('should still apply a well-formed result', () => {
    const next = applyDensityResultToHistory(history, { removals: [3], replacements: new Map([[0, human('Read a.ts please')]]), metadata: {} });
    expect(next).toEqual([human('Read a.ts please'), history[1], history[2]]);
  });
});
