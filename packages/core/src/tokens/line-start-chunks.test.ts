import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitAtLineStarts } from './line-start-chunks.js';
import { propertyRuns } from '@ctx/test-properties';

/** Lines of code-like text: indentation, comments starting with `/`, blank lines, CRLF, unicode. */
const line = fc.oneof(
  fc.constantFrom('', '  ', '\t', '\r', '}', '// note', '/* c */', '  return x;', 'const a = 1;', '\u00a0x', 'naïve', '   '),
  fc.string({ maxLength: 30 }),
);
const text = fc.array(line, { maxLength: 400 }).map((lines) => lines.join('\n'));

/** Where the spec of `Tokenizer.additiveAtLineStarts` allows a cut: right after `\n`, before a line that … */
function allowed(value: string, at: number): boolean {
  return value[at - 1] === '\n' && /^(?![\r\n/])[ \t]*[^\s]/.test(value.slice(at));
}

describe('splitAtLineStarts', () => {
  it('should return chunks that join to the text, each cut at a line start the additive rule allows', () => {
    fc.assert(
      fc.property(text, (value) => {
        const chunks = splitAtLineStarts(value);
        expect(chunks.join('')).toBe(value);
        let at = 0;
        for (const chunk of chunks.slice(0, -1)) {
          at += chunk.length;
          expect(allowed(value, at)).toBe(true);
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('should keep the chunks before and after an edit: an edit changes only the chunks around it', () => {
    const lines = Array.from({ length: 2000 }, (_, index) => `    line ${index}: ${'x'.repeat(index % 37)}`);
    const before = splitAtLineStarts(lines.join('\n'));
    const edited = [...lines];
    edited.splice(1000, 3, '    [lines 1000–1002 are the same as in the read above]');
    const after = splitAtLineStarts(edited.join('\n'));
    const unchanged = after.filter((chunk) => before.includes(chunk));
    expect(before.length).toBeGreaterThan(100);
    // Everything but the chunk holding the edit (and at most its neighbour) is a chunk the original text had.
    expect(after.length - unchanged.length).toBeLessThanOrEqual(2);
  });

  it('should cut a long text into chunks of a few lines, and keep text with no allowed cut whole', () => {
    const code = Array.from({ length: 800 }, (_, index) => `  statement(${index});`).join('\n');
    const chunks = splitAtLineStarts(code);
    expect(chunks.length).toBeGreaterThan(40);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(code.length / 10);
    const comments = Array.from({ length: 800 }, (_, index) => `// comment ${index}`).join('\n');
    expect(splitAtLineStarts(comments)).toEqual([comments]);
    expect(splitAtLineStarts('')).toEqual(['']);
  });
});
