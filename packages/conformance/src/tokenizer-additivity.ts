import type { Tokenizer } from '@ctx/core';
import fc from 'fast-check';
import { resolvePropertyRuns } from './property-validity.js';

/** Options of {@link checkAdditiveAtLineStarts}. */
export interface CheckAdditiveAtLineStartsOptions {
  readonly tokenizer: Tokenizer;
  /**
   * Random text pairs to try.
   * @default `CTX_PROPERTY_RUNS`, else 100, times 20 (a count is cheap)
   */
  readonly runs?: number;
  /** fast-check seed, to replay a failure. */
  readonly seed?: number;
}

/** A pair of texts whose counts do not add up, with the three counts. */
export interface AdditivityCounterexample {
  /** Ends with `\n`. */
  readonly head: string;
  /** Starts where `additiveAtLineStarts` promises a cut. */
  readonly tail: string;
  readonly headTokens: number;
  readonly tailTokens: number;
  readonly wholeTokens: number;
}

/** What {@link checkAdditiveAtLineStarts} found. */
export interface AdditivityReport {
  readonly runs: number;
  /** Undefined when every pair added up. */
  readonly counterexample: AdditivityCounterexample | undefined;
  /** The seed of the run, to replay it. */
  readonly seed: number;
}

/** Pieces that stress BPE pre-tokenizers around line breaks: comments, indentation, CRLF, contractions, unicode. */
const piece = fc.oneof(
  fc.constantFrom('\n', '\r\n', '\n\n', ' ', '  ', '\t', '/', '//', '*/', ';', '{', '}', "'s", "'LL", '1234', 'word', 'Word', 'é', '\u00a0', '日本', '😀', '<|endoftext|>'),
  fc.string({ maxLength: 6 }),
);
const text = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(''));
/** A line start where the property promises counts add up: not `\r`, `\n` or `/`, no blank-only indentation. */
const lineStart = text.filter((value) => /^(?![\r\n/])[ \t]*[^\s]/.test(value));

/**
 * Checks a tokenizer's `additiveAtLineStarts` claim on random texts: for a text `head` ending with `\n` and a `tail`
 * starting where the property allows a cut, `countTokens(head) + countTokens(tail)` must equal
 * `countTokens(head + tail)`. Run it in the tests of a tokenizer that declares the property: a wrong claim makes every
 * count of a long multi-line text wrong.
 *
 * @param options - The tokenizer, and how many pairs to try (`CTX_PROPERTY_RUNS` × 20 by default).
 * @returns The smallest pair that does not add up (fast-check shrinks it), or none.
 * @example
 * ```ts
 * const report = checkAdditiveAtLineStarts({ tokenizer: await createMyTokenizer() });
 * expect(report.counterexample).toBeUndefined();
 * ```
 */
export function checkAdditiveAtLineStarts(options: CheckAdditiveAtLineStartsOptions): AdditivityReport {
  const { tokenizer } = options;
  const runs = options.runs ?? resolvePropertyRuns() * 20;
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const details = fc.check(
    fc.property(text, lineStart, (before, tail) => {
      const head = `${before}\n`;
      return tokenizer.countTokens(head) + tokenizer.countTokens(tail) === tokenizer.countTokens(head + tail);
    }),
    { numRuns: runs, seed },
  );
  const found = details.counterexample;
  if (found === null) return { runs, counterexample: undefined, seed };
  const [before, tail] = found;
  const head = `${before}\n`;
  return {
    runs,
    seed,
    counterexample: {
      head,
      tail,
      headTokens: tokenizer.countTokens(head),
      tailTokens: tokenizer.countTokens(tail),
      wholeTokens: tokenizer.countTokens(head + tail),
    },
  };
}
