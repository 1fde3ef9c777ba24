import { MockTokenizer } from '@ctx/conformance';

/**
 * A tokenizer that counts one token per whitespace-separated word, so a test can state token counts by hand.
 *
 * @returns A fresh mock tokenizer (it records its calls).
 */
export function wordTokenizer(): MockTokenizer {
  return new MockTokenizer((text) => text.split(/\s+/).filter(Boolean).length);
}

/**
 * Text of exactly `count` tokens for {@link wordTokenizer}: `w0 w1 …`.
 *
 * @param count - How many words.
 * @returns The words, separated by single spaces.
 */
export function words(count: number): string {
  return Array.from({ length: count }, (_, index) => `w${index}`).join(' ');
}
