import { describe, expect, it } from 'vitest';
import { selectPassRange } from './select-pass-range.js';

describe('selectPassRange', () => {
  it('should leave the newest keepRecentCount entries out (preserve_recent)', () => {
    expect(selectPassRange({ type: 'preserve_recent', keepRecentCount: 3 }, 10)).toEqual({ start: 0, end: 7 });
    expect(selectPassRange({ type: 'preserve_recent', keepRecentCount: 30 }, 10)).toEqual({ start: 0, end: 0 });
  });

  it('should leave the newest keepPercentage% out, rounded up (preserve_percent)', () => {
    expect(selectPassRange({ type: 'preserve_percent', keepPercentage: 25 }, 10)).toEqual({ start: 0, end: 7 });
    expect(selectPassRange({ type: 'preserve_percent', keepPercentage: 0 }, 10)).toEqual({ start: 0, end: 10 });
  });

  it('should take [from, to) with negative indices counted from the end, clamped (custom)', () => {
    expect(selectPassRange({ type: 'custom', from: -4 }, 10)).toEqual({ start: 6, end: 10 });
    expect(selectPassRange({ type: 'custom', from: 2, to: -2 }, 10)).toEqual({ start: 2, end: 8 });
    expect(selectPassRange({ type: 'custom', from: -40, to: 99 }, 10)).toEqual({ start: 0, end: 10 });
  });
});
