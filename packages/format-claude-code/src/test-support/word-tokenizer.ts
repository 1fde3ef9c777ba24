import type { Tokenizer } from '@ctx/core';

/** A deterministic test tokenizer: one token per whitespace-separated word. */
export function createWordTokenizer(): Tokenizer {
  return {
    specificationVersion: 'v1',
    name: 'words',
    countTokens: (text) => text.split(/\s+/).filter(Boolean).length,
  };
}
