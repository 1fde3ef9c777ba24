import { describe, expect, it } from 'vitest';
import { cutTextHead } from './cut-text-head.js';

describe('cutTextHead', () => {
  it('should leave a text within its limits alone, a final line break not counting as a line', () => {
    expect(cutTextHead('a\nb\n', { maxChars: 10, maxLines: 2 })).toBeUndefined();
    expect(cutTextHead('abc', { maxChars: 3 })).toBeUndefined();
  });

  it('should keep whole lines while the line limit binds, counting the lines cut', () => {
    expect(cutTextHead('a\nb\nc\n', { maxChars: 100, maxLines: 1 })).toEqual({ head: 'a', removed: 2, unit: 'lines' });
  });

  it('should cut by characters when the kept lines would be over the character limit', () => {
    expect(cutTextHead('abcdef\nb', { maxChars: 3, maxLines: 1 })).toEqual({ head: 'abc', removed: 5, unit: 'characters' });
  });

  it('should never split a surrogate pair', () => {
    expect(cutTextHead('a😀bc', { maxChars: 2 })).toEqual({ head: 'a', removed: 4, unit: 'characters' });
  });
});
