import { describe, expect, it } from 'vitest';
import { shortenText } from './shorten-text.js';
import { lines } from './test-support/entries.js';

describe('shortenText', () => {
  const truncate = (maxLines: number | undefined, maxChars = 10_000) => ({ mode: 'truncate' as const, maxChars, ...(maxLines === undefined ? {} : { maxLines }) });

  it('should leave text within both limits alone, a final line break included', () => {
    expect(shortenText(lines(5), truncate(5))).toBeUndefined();
    expect(shortenText(`${lines(5)}\n`, truncate(5))).toBeUndefined();
    expect(shortenText('x'.repeat(100), truncate(undefined, 100))).toBeUndefined();
  });

  it('should keep whole lines while the line limit binds and count the lines it cut', () => {
    expect(shortenText(lines(50), truncate(3))).toEqual({ text: `${lines(3)}\n⟨ … 47 more lines truncated ⟩`, operation: 'truncated' });
    // A final line break ends the last line; it is not a line of its own.
    expect(shortenText(`${lines(50)}\n`, truncate(3))?.text).toBe(`${lines(3)}\n⟨ … 47 more lines truncated ⟩`);
    // Empty lines count.
    expect(shortenText(`a\n\n\n\n\n\n\n\n\n${'b'.repeat(100)}`, truncate(1))?.text).toBe('a\n⟨ … 9 more lines truncated ⟩');
  });

  it('should cut by characters when the kept lines are longer than the character limit', () => {
    const text = `${'x'.repeat(300)}\n${lines(10)}`;
    expect(shortenText(text, truncate(5, 100))?.text).toBe(`${'x'.repeat(100)}\n⟨ … ${text.length - 100} more characters truncated ⟩`);
  });

  it('should never split a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(200)}`;
    const shortened = shortenText(text, truncate(undefined, 10));
    expect(shortened?.text.startsWith(`${'a'.repeat(9)}\n`)).toBe(true);
    expect(shortened?.text).toContain('⟨ … 202 more characters truncated ⟩');
  });

  it('should replace the whole text with the suppression marker in suppress mode', () => {
    expect(shortenText(lines(50), { mode: 'suppress', maxChars: 10_000, maxLines: 5 })).toEqual({
      text: '⟨ Content suppressed ⟩',
      operation: 'suppressed',
    });
  });

  it('should leave text alone when the marker would not make it shorter', () => {
    expect(shortenText('x'.repeat(20), { mode: 'suppress', maxChars: 10 })).toBeUndefined();
    expect(shortenText('x'.repeat(40), truncate(undefined, 10))).toBeUndefined();
  });

  it('should leave text it already shortened alone, so a second pass changes nothing', () => {
    const once = shortenText(lines(50), truncate(3))?.text as string;
    expect(shortenText(once, truncate(3))).toBeUndefined();
    expect(shortenText(once, truncate(1))).toBeUndefined();
    const chars = shortenText('y'.repeat(500), truncate(undefined, 100))?.text as string;
    expect(shortenText(chars, truncate(undefined, 100))).toBeUndefined();
  });

  it('should read only the beginning of a huge text within the line limit check', () => {
    const huge = `${lines(10)}\n${'z'.repeat(5_000_000)}`;
    expect(shortenText(huge, truncate(2))?.text).toBe(`${lines(2)}\n⟨ … 9 more lines truncated ⟩`);
  });
});
