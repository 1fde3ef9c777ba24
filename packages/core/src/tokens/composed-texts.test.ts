import { propertyRuns } from '@ctx/test-properties';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composedTextRecipe, noteComposedText, type TextPiece } from './composed-texts.js';
import { allowsCut, splitAtLineStarts } from './line-start-chunks.js';
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

  it('should count a text made of spans of a counted text from its chunks, tokenizing only the stretch around what was written', () => {
    const lines = Array.from({ length: 600 }, (_, index) => `  export const value${index} = compute(${index});`);
    const text = lines.join('\n');
    const lineStart = (index: number) => lines.slice(0, index).join('\n').length + (index > 0 ? 1 : 0);
    const cuts = new Set<number>();
    let at = 0;
    for (const chunk of splitAtLineStarts(text)) cuts.add((at += chunk.length));
    // A span that ends inside one of the source's chunks, then a line that starts a chunk of its own wherever it is:
    // split anew, the written line's chunk would start at it; counted from the source's chunks, one stretch runs from
    // the source's last cut before it to the first after it.
    const cutLine = Array.from({ length: 100 }, (_, offset) => 300 + offset).find((index) => !cuts.has(lineStart(index))) as number;
    const marker = Array.from({ length: 100 }, (_, index) => `[${index}] lines as shown above`).find((line) =>
      splitAtLineStarts(`a\n${line}\nb`)[1]?.startsWith(line),
    ) as string;
    const pieces: TextPiece[] = [{ text, start: 0, end: lineStart(cutLine) }, `${marker}\n`, { text, start: lineStart(cutLine + 40), end: text.length }];
    const composed = pieces.map((piece) => (typeof piece === 'string' ? piece : text.slice(piece.start, piece.end))).join('');
    const tokenizer = createStrictTokenizer();
    const counter = createTokenCounter(tokenizer);
    counter.countText(text);
    noteComposedText(composed, pieces);
    const tokenizedBefore = tokenizer.calls.length;
    expect(counter.countText(composed)).toBe(createStrictTokenizer().countTokens(composed));
    const calls = tokenizer.calls.slice(tokenizedBefore);
    expect(calls.some((call) => call.includes(`${lines[cutLine - 1] as string}\n${marker}`))).toBe(true);
    expect(calls.join('').length).toBeLessThan(composed.length / 10);
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
});
