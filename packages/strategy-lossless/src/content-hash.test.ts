import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashContent, hashJson, hashLines } from './content-hash.js';
import { propertyRuns } from '@ctx/test-properties';

// Code units that JSON.stringify escapes or that pair up, mixed with plain ones, so escapes and surrogates are common.
const unitArbitrary = fc.oneof(
  fc.constantFrom('"', '\\', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001f', '\u007f', '\u2028', '\ud83d', '\ude00', '→', 'a'),
  fc.string({ unit: 'binary', maxLength: 3 }),
);
const textArbitrary = fc.array(unitArbitrary, { maxLength: 40 }).map((units) => units.join(''));

describe('hashContent', () => {
  it('should give 16 hex digits, the same for the same text and different for a changed one', () => {
    expect(hashContent('def main():')).toMatch(/^[0-9a-f]{16}$/);
    expect(hashContent('def main():')).toBe(hashContent(`def ${'main'}():`));
    expect(hashContent('def main():')).not.toBe(hashContent('def main( ):'));
  });
});

describe('hashLines', () => {
  it('should hash lines as hashContent hashes them joined by line breaks', () => {
    fc.assert(
      fc.property(fc.array(textArbitrary, { maxLength: 8 }), fc.nat({ max: 9 }), fc.nat({ max: 9 }), (lines, start, count) => {
        expect(hashLines(lines, start, count)).toBe(hashContent(lines.slice(start, start + count).join('\n')));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});

describe('hashJson', () => {
  it('should hash any string as hashContent hashes its JSON text, escapes and lone surrogates included', () => {
    for (const text of ['', 'say "hi"\n', '\ud83d\ude00', '\ud83d', '\ude00\ud83d', 'end\ud83d', '\u0000\u001f\\']) {
      expect(hashJson(text)).toBe(hashContent(JSON.stringify(text)));
    }
    fc.assert(
      fc.property(textArbitrary, (text) => {
        expect(hashJson(text)).toBe(hashContent(JSON.stringify(text)));
      }),
      { numRuns: propertyRuns(5000) },
    );
  });

  it('should hash structured values as hashContent hashes their JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(hashJson(value as never)).toBe(hashContent(JSON.stringify(value)));
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});
