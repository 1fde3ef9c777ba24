import { propertyRuns } from '@ctx/test-properties';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composedTextRecipe, noteComposedText, type TextPiece } from './composed-texts.js';
import { allowsCut } from './line-start-chunks.js';
import { createTokenCounter } from './token-counter.js';
import type { Tokenizer } from './tokenizer.js';

/**
 * A tokenizer whose counts add up at exactly the line starts `additiveAtLineStarts` promises, and at no other: one
 * token per word, plus one for each line feed followed by a line start that allows no cut (`/`, a line break, blank
 * indentation), as if the line feed joined what follows it. Cut anywhere else and the parts' counts miss that token.
 */
function createStrictTokenizer(): Tokenizer & { readonly calls: string[] } {
  const calls: string[] = [];
  return {
    specificationVersion: 'v1',
    name: 'strict-words',
    additiveAtLineStarts: true,
    calls,
    countTokens(text) {
      calls.push(text);
      let joined = 0;
      for (let index = text.indexOf('\n'); index >= 0 && index < text.length - 1; index = text.indexOf('\n', index + 1)) {
        if (!allowsCut(text, index + 1)) joined++;
      }
      return text.split(/\s+/).filter(Boolean).length + joined;
    },
  };
}

const line = fc.constantFrom(
  'export const value = compute(1);',
  'if (ready) return result;',
  '/usr/lib/node_modules',
  '    indented code',
  '   ',
  '',
  '\ttabbed',
  '+ added line',
  '- removed line',
  '⟨ Reference: See output lines 1–4 above ⟩',
  'a Windows line\r',
  '\rafter a carriage return',
  '😀 two-unit characters',
);
const source = fc.array(line, { minLength: 60, maxLength: 300 }).map((lines) => lines.join('\n'));

/** A composition of `text`: random ranges (at line starts or anywhere) and written strings between them. */
function composition(text: string): fc.Arbitrary<TextPiece[]> {
  const position = fc.integer({ min: 0, max: text.length });
  const range = fc.tuple(position, position).map(([a, b]): TextPiece => ({ text, start: Math.min(a, b), end: Math.max(a, b) }));
  const written = fc.oneof(line.map((value) => `${value}\n`), line);
  return fc.array(fc.oneof({ weight: 3, arbitrary: range }, { weight: 1, arbitrary: written }), { minLength: 1, maxLength: 12 });
}

const join = (pieces: readonly TextPiece[]): string =>
  pieces.map((piece) => (typeof piece === 'string' ? piece : piece.text.slice(piece.start, piece.end))).join('');

describe('noteComposedText', () => {
  it('should leave every count exact: a composed text counts what the tokenizer gives the whole text', () => {
    fc.assert(
      fc.property(
        source.chain((text) => fc.tuple(fc.constant(text), composition(text))),
        ([text, pieces]) => {
          const tokenizer = createStrictTokenizer();
          const counter = createTokenCounter(tokenizer);
          counter.countText(text);
          const composed = join(pieces);
          noteComposedText(composed, pieces);
          expect(counter.countText(composed)).toBe(createStrictTokenizer().countTokens(composed));
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });

  it('should count a text made of spans of a counted text from its chunks, tokenizing only around what was written', () => {
    const lines = Array.from({ length: 600 }, (_, index) => `  export const value${index} = compute(${index});`);
    const text = lines.join('\n');
    const lineStart = (index: number) => lines.slice(0, index).join('\n').length + 1;
    const marker = '[lines 300–339 as shown above]\n';
    const pieces: TextPiece[] = [{ text, start: 0, end: lineStart(300) }, marker, { text, start: lineStart(340), end: text.length }];
    const composed = `${text.slice(0, lineStart(300))}${marker}${text.slice(lineStart(340))}`;
    const tokenizer = createStrictTokenizer();
    // A content cache four times the text: the counter keeps where it cut the text (a quarter of the budget), while
    // short texts counted afterwards push the text's chunks out of the cache, so splitting the new text would
    // tokenize nearly all of it again.
    const counter = createTokenCounter(tokenizer, { contentCacheCharacters: 4 * text.length });
    counter.countText(text);
    for (let index = 0; index < 400; index++) counter.countText(`short text ${index} `.padEnd(500, '.'));
    noteComposedText(composed, pieces);
    const tokenizedBefore = tokenizer.calls.join('').length;
    expect(counter.countText(composed)).toBe(createStrictTokenizer().countTokens(composed));
    expect(tokenizer.calls.join('').length - tokenizedBefore).toBeLessThan(composed.length / 10);
  });

  it('should keep the recipes of the 128 texts noted last, of 4 million characters at most', () => {
    const long = (label: string) => `${label}\n`.padEnd(2000, '.');
    const pieces = (text: string): TextPiece[] => [text];
    noteComposedText(long('first'), pieces(long('first')));
    expect(composedTextRecipe(long('first'))).toEqual(pieces(long('first')));
    for (let index = 0; index < 128; index++) noteComposedText(long(`other ${index}`), pieces(long(`other ${index}`)));
    expect(composedTextRecipe(long('first'))).toBeUndefined();
    expect(composedTextRecipe(long('other 127'))).toBeDefined();
    const huge = 'x'.repeat(4_000_001);
    noteComposedText(huge, [huge]);
    expect(composedTextRecipe(huge)).toBeUndefined();
    noteComposedText('short', ['short']);
    expect(composedTextRecipe('short')).toBeUndefined();
  });

  it('should ignore a recipe whose pieces do not join to the text, and count the text itself', () => {
    const text = Array.from({ length: 300 }, (_, index) => `line ${index} of the output`).join('\n');
    const counter = createTokenCounter(createStrictTokenizer());
    counter.countText(text);
    const other = text.replace('line 150', 'LINE 150 changed');
    noteComposedText(other, [{ text, start: 0, end: text.length }]);
    expect(counter.countText(other)).toBe(createStrictTokenizer().countTokens(other));
    const outOfRange = `${text}\nmore`;
    noteComposedText(outOfRange, [{ text, start: 0, end: text.length + 5 }]);
    expect(counter.countText(outOfRange)).toBe(createStrictTokenizer().countTokens(outOfRange));
  });

  it('should never let a malformed recipe (from JavaScript, untyped) break counting', () => {
    const text = Array.from({ length: 300 }, (_, index) => `line ${index} of the output`).join('\n');
    const counter = createTokenCounter(createStrictTokenizer());
    counter.countText(text);
    const malformed: unknown[] = [null, 'a string', [null], [{ start: 0, end: 4 }], [{ text, start: '0', end: 4 }], [{ text, start: 0.5, end: 4 }]];
    for (const [index, recipe] of malformed.entries()) {
      const composed = `${index}\n${text}`;
      noteComposedText(composed, recipe as TextPiece[]);
      expect(counter.countText(composed)).toBe(createStrictTokenizer().countTokens(composed));
    }
  });
});
