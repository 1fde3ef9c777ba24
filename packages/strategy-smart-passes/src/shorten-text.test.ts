import { describe, expect, it } from 'vitest';
import { SUPPRESSED_CONTENT_MARKER, isAlreadyShortened } from './content-markers.js';
import { truncateText } from './shorten-text.js';

const text = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join('\n');

describe('truncateText', () => {
  it('should keep the first maxLines lines and say how many lines were cut (FR-TR-002 visual marker)', () => {
    expect(truncateText(text, { maxChars: 1_000, maxLines: 2, addEllipsis: true })).toBe('line 1\nline 2\n⟨ ... truncated 10 lines ⟩');
  });

  it('should cut one long line by characters, never between the halves of a surrogate pair', () => {
    expect(truncateText('abcdefgh', { maxChars: 3, addEllipsis: true })).toBe('abc\n⟨ ... truncated 5 characters ⟩');
    expect(truncateText('ab😀cd', { maxChars: 3, addEllipsis: true })).toBe('ab\n⟨ ... truncated 4 characters ⟩');
  });

  it('should be idempotent: truncating truncated text, or text within its limits, returns it unchanged', () => {
    const limits = { maxChars: 20, maxLines: 2, addEllipsis: true };
    const once = truncateText(text, limits);
    expect(truncateText(once, limits)).toBe(once);
    expect(truncateText('short', limits)).toBe('short');
    const silent = truncateText(text, { ...limits, addEllipsis: false });
    expect(silent).toBe('line 1\nline 2');
    expect(truncateText(silent, { ...limits, addEllipsis: false })).toBe(silent);
  });
});

describe('isAlreadyShortened', () => {
  it('should recognise the suppression marker, truncated text and summaries, and nothing else', () => {
    expect(isAlreadyShortened(SUPPRESSED_CONTENT_MARKER)).toBe(true);
    expect(isAlreadyShortened('a\n⟨ ... truncated 1,200 lines ⟩')).toBe(true);
    expect(isAlreadyShortened('⟨ Summarized ⟩\nThe file defines parse().')).toBe(true);
    expect(isAlreadyShortened('a normal ⟨ text ⟩')).toBe(false);
  });
});
