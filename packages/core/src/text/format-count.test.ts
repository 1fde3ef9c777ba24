import { describe, expect, it } from 'vitest';
import { formatCount, formatRoundedCount } from './format-count.js';

describe('formatCount', () => {
  it('should group digits the en-US way and keep up to three decimals', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-1234)).toBe('-1,234');
    expect(formatCount(1234.56789)).toBe('1,234.568');
  });
});

describe('formatRoundedCount', () => {
  it('should round to a whole number before grouping', () => {
    expect(formatRoundedCount(12345.6)).toBe('12,346');
    expect(formatRoundedCount(0.4)).toBe('0');
  });
});
