import type { Tokenizer } from '@ctx/core';

/** Encodings gpt-tokenizer ships. `o200k_base` is GPT-4o / GPT-4.1 / GPT-5's encoding. */
export type GptTokenizerEncoding = 'o200k_base' | 'cl100k_base';

/** Options of {@link createGptTokenizer}. */
export interface GptTokenizerOptions {
  /**
   * The encoding.
   * @default 'o200k_base'
   */
  readonly encoding?: GptTokenizerEncoding;
}

interface EncodingModule {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

async function loadEncoding(encoding: GptTokenizerEncoding): Promise<EncodingModule> {
  // Static specifiers per encoding keep bundlers able to split them; only the chosen one is loaded.
  switch (encoding) {
    case 'o200k_base':
      return import('gpt-tokenizer/encoding/o200k_base');
    case 'cl100k_base':
      return import('gpt-tokenizer/encoding/cl100k_base');
  }
}

/**
 * Creates the default ctx tokenizer, backed by gpt-tokenizer: pure JavaScript (runs in browsers), and the fastest
 * of the tokenizers measured on this project's machine. Special-token strings such as `<|endoftext|>` in the text
 * are counted as ordinary text, never rejected.
 *
 * @example
 * ```ts
 * const tokenizer = await createGptTokenizer();
 * tokenizer.countTokens('hello world'); // 2
 * ```
 */
export async function createGptTokenizer(options: GptTokenizerOptions = {}): Promise<Tokenizer> {
  const encoding = options.encoding ?? 'o200k_base';
  const module = await loadEncoding(encoding);
  // An empty disallowed set makes special tokens plain text instead of an error (real transcripts contain them).
  const countOptions = { disallowedSpecial: new Set<string>() };
  return {
    specificationVersion: 'v1',
    name: `gpt-tokenizer:${encoding}`,
    // Both encodings' pre-tokenizers never make a token across a line start (see the property's TSDoc); tested.
    additiveAtLineStarts: true,
    countTokens: (text) => module.countTokens(text, countOptions),
  };
}
