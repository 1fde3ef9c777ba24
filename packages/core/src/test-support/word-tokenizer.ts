import type { Tokenizer } from '../tokens/tokenizer.js';

/** A deterministic test tokenizer: one token per whitespace-separated word. Records every text it counts. */
export interface RecordingTokenizer extends Tokenizer {
  readonly calls: string[];
}

/**
 * Creates a {@link RecordingTokenizer}. `count` can override the count (e.g. to throw or return NaN for one text).
 */
export function createWordTokenizer(count?: (text: string) => number): RecordingTokenizer {
  const calls: string[] = [];
  return {
    specificationVersion: 'v1',
    name: 'words',
    calls,
    countTokens(text) {
      calls.push(text);
      return count?.(text) ?? text.split(/\s+/).filter(Boolean).length;
    },
  };
}
