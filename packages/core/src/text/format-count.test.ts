import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount, formatRoundedCount } from './format-count.js';
import { propertyRuns } from '@ctx/test-properties';

describe('formatCount', () => {
  it('should group digits the en-US way and keep up to three decimals', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-1234)).toBe('-1,234');
    expect(formatCount(1234.56789)).toBe('1,234.568');
  });

  it('should write every number exactly as Intl.NumberFormat en-US does', () => {
    const intl = new Intl.NumberFormat('en-US');
    for (const value of [0, -0, 7, 999, 1000, -1000, 100_000, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 53, 1e21, 0.5, Number.NaN, Infinity]) {
      expect(formatCount(value)).toBe(intl.format(value));
    }
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double()), (value) => {
        expect(formatCount(value)).toBe(intl.format(value));
      }),
      { numRuns: propertyRuns(5000) },
    );
  });
});

describe('formatRoundedCount', () => {
  it('should round to a whole number before grouping', () => {
    expect(formatRoundedCount(12345.6)).toBe('12,346');
    expect(formatRoundedCount(0.4)).toBe('0');
  });

  it('should write every number exactly as Intl.NumberFormat en-US does without decimals', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double(), fc.constantFrom(-0, -2.5, 2.5, -1000.5)), (value) => {
        expect(formatRoundedCount(value)).toBe(intl.format(value));
      }),
      { numRuns: propertyRuns(5000) },
    );
  });
});
