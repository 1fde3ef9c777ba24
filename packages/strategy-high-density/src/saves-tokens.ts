/**
 * Whether replacing a text of `originalLength` characters by a marker of `replacementLength` characters makes it
 * smaller in tokens. `optimize()` gets no tokenizer, so characters stand in for tokens, with a margin: the part that
 * goes must be at least twice as long as the marker that replaces it. A marker is short prose, which most
 * tokenizers pack at about four characters a token; what it replaces may pack more (paths, long identifiers, runs
 * of spaces), and the margin keeps such text from turning into a marker with more tokens than it had. Something
 * only a little longer than its marker saves next to nothing anyway.
 *
 * @param originalLength - Characters of the text replaced.
 * @param replacementLength - Characters of what replaces it.
 * @param sharedLength - Characters both contain (lines the marker keeps), which count the same on both sides.
 * @returns True when the replacement is the smaller one.
 * @example
 * ```ts
 * savesTokens(400, 80); // true
 * savesTokens(45, 41); // false: "File created successfully at: /repo/a.ts" is fewer tokens than the pointer
 * ```
 */
export function savesTokens(originalLength: number, replacementLength: number, sharedLength = 0): boolean {
  return originalLength - sharedLength >= 2 * (replacementLength - sharedLength);
}
