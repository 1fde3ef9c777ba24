import { checkAdditiveAtLineStarts } from '@ctx/conformance';
import type { Tokenizer } from '@ctx/core';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { createTiktokenTokenizer } from '@ctx/tokenizer-tiktoken';
import { describe, expect, it } from 'vitest';

// Both tokenizer packages declare `additiveAtLineStarts` for both encodings they offer; the token counter trusts the
// claim for every long text, so it is checked here, where both packages and the conformance kit meet.
const tokenizers: readonly [string, () => Promise<Tokenizer & { dispose?: () => void }>][] = [
  ['gpt-tokenizer o200k_base', () => createGptTokenizer({ encoding: 'o200k_base' })],
  ['gpt-tokenizer cl100k_base', () => createGptTokenizer({ encoding: 'cl100k_base' })],
  ['tiktoken o200k_base', () => createTiktokenTokenizer({ encoding: 'o200k_base' })],
  ['tiktoken cl100k_base', () => createTiktokenTokenizer({ encoding: 'cl100k_base' })],
];

describe.each(tokenizers)('%s', (_, create) => {
  it('should declare additiveAtLineStarts and keep the promise: counts add up at every line start it names', async () => {
    const tokenizer = await create();
    try {
      expect(tokenizer.additiveAtLineStarts).toBe(true);
      const report = checkAdditiveAtLineStarts({ tokenizer });
      expect(report.counterexample, `seed ${report.seed}`).toBeUndefined();
    } finally {
      tokenizer.dispose?.();
    }
  });
});
