import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumberedLine, parseNumberedLine, type NumberedLine } from './numbered-line.js';
import { propertyRuns } from '@ctx/test-properties';

/** The rule the parser implements, read with a regular expression. */
function parseWithPattern(line: string): NumberedLine {
  const match = /^( *)([1-9]\d*|0)(→|\t)/.exec(line);
  if (match === null) return { content: line };
  const [prefix, padding = '', digits = ''] = match;
  return { content: line.slice(prefix.length), number: Number(digits), width: padding.length + digits.length, separator: match[3] };
}

// Spaces, digits (zero among them), both separators and look-alikes, so prefixes and near-prefixes are common.
const unitArbitrary = fc.constantFrom(' ', '0', '1', '7', '9', '→', '\t', '←', '\u00a0', '٣', 'x', '\n');
const mixedLineArbitrary = fc.array(unitArbitrary, { maxLength: 14 }).map((units) => units.join(''));
// Padding, a number of up to 25 digits (past what a double holds exactly), a separator or not, then any text.
const prefixedLineArbitrary = fc
  .tuple(fc.nat({ max: 6 }), fc.stringMatching(/^\d{1,25}$/), fc.constantFrom('→', '\t', ':', ''), fc.string({ maxLength: 6 }))
  .map(([padding, digits, separator, rest]) => `${' '.repeat(padding)}${digits}${separator}${rest}`);
const lineArbitrary = fc.oneof(mixedLineArbitrary, prefixedLineArbitrary);

describe('parseNumberedLine', () => {
  it('should split the prefixes Claude Code Read, cat -n and nl print, and leave other lines whole', () => {
    expect(parseNumberedLine('    12→  return x;')).toEqual({ content: '  return x;', number: 12, width: 6, separator: '→' });
    expect(parseNumberedLine('     7\tfoo')).toEqual({ content: 'foo', number: 7, width: 6, separator: '\t' });
    expect(parseNumberedLine('0→x')).toEqual({ content: 'x', number: 0, width: 1, separator: '→' });
    // A leading zero could not be printed back by padding the number: no prefix.
    expect(parseNumberedLine('  012→x')).toEqual({ content: '  012→x' });
    expect(parseNumberedLine('12 apples')).toEqual({ content: '12 apples' });
    expect(parseNumberedLine('12345678901234567890→x').number).toBe(Number('12345678901234567890'));
  });

  it('should read exactly the prefixes the pattern ^( *)([1-9]\\d*|0)(→|\\t) matches', () => {
    fc.assert(
      fc.property(lineArbitrary, (line) => {
        expect(parseNumberedLine(line)).toStrictEqual(parseWithPattern(line));
      }),
      { numRuns: propertyRuns(10_000) },
    );
  });

  it('should give back the line when its parts are formatted again', () => {
    fc.assert(
      fc.property(lineArbitrary, (line) => {
        const { content, number, width, separator } = parseNumberedLine(line);
        if (number === undefined || width === undefined || separator === undefined) return;
        expect(formatNumberedLine(number, width, separator, content)).toBe(line);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});
