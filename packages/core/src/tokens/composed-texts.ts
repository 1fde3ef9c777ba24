import { createRecentTexts } from './recent-texts.js';

/**
 * A part of a composed text: a string, or the characters `[start, end)` of another text (which a token counter may
 * already have counted, chunk by chunk).
 */
export type TextPiece = string | { readonly text: string; readonly start: number; readonly end: number };

/**
 * Recipes of the texts composed most recently: as many as a strategy or the emergency cut writes in one turn, with
 * room to spare, and 4 million characters of composed texts at most (their sources, which they are mostly spans of,
 * about as many more): a process serving many conversations keeps no more than this alive for one that has ended.
 */
const recipes = createRecentTexts<readonly TextPiece[]>(128, 4_000_000);
/** Shorter texts are counted whole or in a few chunks; a recipe would cost about what it saves. */
const minimumComposedLength = 1024;

/**
 * Says how a text was made out of others, so that a token counter counting it later can add up the counts it already
 * has for those others instead of reading the whole text again: a strategy that rewrites a long tool result by
 * keeping spans of it and writing a few lines of its own (lossless's references, the emergency cut's head, marker and
 * tail) notes the spans.
 *
 * Only a hint. Counters made by `createTokenCounter` use it when their tokenizer declares `additiveAtLineStarts`, and
 * only at line starts where that declaration makes the sum exact; a recipe whose pieces do not join to `text`, or
 * that is malformed, is ignored (never an error while counting). Counts are the same with or without it. Kept for the 128 texts noted most recently, 4 million characters
 * of them at most (module-wide, so a strategy that has no counter at hand, as in `optimize()`, can note what it
 * wrote); texts under 1,024 characters are not kept.
 *
 * @param text - The composed text, exactly as it will be counted (the same string is cheapest to look up).
 * @param pieces - Its parts, in order: joined, they are `text`.
 * @example
 * ```ts
 * const rewritten = `${original.slice(0, cut)}[… 40 lines omitted …]\n${original.slice(resume)}`;
 * noteComposedText(rewritten, [{ text: original, start: 0, end: cut }, '[… 40 lines omitted …]\n', { text: original, start: resume, end: original.length }]);
 * ```
 */
export function noteComposedText(text: string, pieces: readonly TextPiece[]): void {
  if (text.length >= minimumComposedLength) recipes.set(text, pieces);
}

/**
 * The pieces noted for `text` by {@link noteComposedText}, or undefined: not noted, noted too long ago, or shorter
 * than 1,024 characters. For a strategy's tests, to check that what it notes joins to what it wrote.
 *
 * @example
 * ```ts
 * expect(composedTextRecipe(rewritten)?.map((piece) => (typeof piece === 'string' ? piece : piece.text.slice(piece.start, piece.end))).join('')).toBe(rewritten);
 * ```
 */
export function composedTextRecipe(text: string): readonly TextPiece[] | undefined {
  return text.length < minimumComposedLength ? undefined : recipes.get(text);
}

/** The characters a well-formed range piece stands for, or undefined for anything else (a hint never throws). */
function rangeText(piece: unknown): string | undefined {
  if (typeof piece !== 'object' || piece === null) return undefined;
  const { text, start, end } = piece as { text?: unknown; start?: unknown; end?: unknown };
  if (typeof text !== 'string' || !Number.isInteger(start) || !Number.isInteger(end)) return undefined;
  const from = start as number;
  const to = end as number;
  return from >= 0 && from <= to && to <= text.length ? text.slice(from, to) : undefined;
}

/**
 * Whether `pieces` join to exactly `text` (each range within its text, whole numbers): a recipe that does not, or is
 * not an array of pieces at all, is not used. Compares piece by piece without building the joined string: slices and
 * `===` (the engine compares the characters in one native loop; `startsWith` at an offset took 1–10 ms for an
 * 800,000-character text, slices 0.2–0.5).
 */
export function piecesJoinTo(text: string, pieces: readonly TextPiece[]): boolean {
  if (!Array.isArray(pieces)) return false;
  let position = 0;
  for (const piece of pieces as readonly unknown[]) {
    const part = typeof piece === 'string' ? piece : rangeText(piece);
    if (part === undefined) return false;
    if (position + part.length > text.length || text.slice(position, position + part.length) !== part) return false;
    position += part.length;
  }
  return position === text.length;
}
