import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trimmedStartLength } from './trimmed-start-length.js';
import { propertyRuns } from '@ctx/test-properties';

// White space of every kind JavaScript trims (ASCII and Unicode), characters that look like it but are not, and text.
const unitArbitrary = fc.constantFrom(' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2003', '\u2028', '\u3000', '\ufeff', '\u200b', '\u0085', '\u001f', 'x', '→', '😀');
const lineArbitrary = fc.array(unitArbitrary, { maxLength: 12 }).map((units) => units.join(''));

describe('trimmedStartLength', () => {
  it('should give the length trimStart leaves, for ASCII and Unicode white space alike', () => {
    expect(trimmedStartLength('\t  return x;')).toBe(9);
    expect(trimmedStartLength('\u00a0\u3000x')).toBe(1);
    // U+200B (zero-width space) and U+0085 (next line) are not white space to JavaScript.
    expect(trimmedStartLength(' \u200bx')).toBe(2);
    fc.assert(
      fc.property(lineArbitrary, (line) => {
        expect(trimmedStartLength(line)).toBe(line.trimStart().length);
      }),
      { numRuns: propertyRuns(5000) },
    );
  });
});
