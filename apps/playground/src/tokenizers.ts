import type { Tokenizer } from '@ctx/core';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { createTiktokenTokenizer } from '@ctx/tokenizer-tiktoken';

/** Tokenizers the CLI offers, by `--tokenizer` name. */
export const tokenizerNames = ['gpt-tokenizer', 'tiktoken'] as const;

/** A `--tokenizer` value. */
export type TokenizerName = (typeof tokenizerNames)[number];

/** Creates the named tokenizer with the o200k_base encoding. */
export function createTokenizer(name: TokenizerName): Promise<Tokenizer> {
  return name === 'tiktoken' ? createTiktokenTokenizer() : createGptTokenizer();
}
