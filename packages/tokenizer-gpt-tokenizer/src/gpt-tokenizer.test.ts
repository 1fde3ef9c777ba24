import { describe, expect, it } from 'vitest';
import { createGptTokenizer } from './gpt-tokenizer.js';

describe('createGptTokenizer', () => {
  it('should count o200k tokens by default', async () => {
    const tokenizer = await createGptTokenizer();
    expect(tokenizer.name).toBe('gpt-tokenizer:o200k_base');
    expect(tokenizer.specificationVersion).toBe('v1');
    expect(tokenizer.countTokens('hello world')).toBe(2);
    expect(tokenizer.countTokens('')).toBe(0);
  });

  it('should count special-token strings as text instead of throwing', async () => {
    const tokenizer = await createGptTokenizer();
    const count = tokenizer.countTokens('before <|endoftext|> after <|im_start|>');
    expect(count).toBeGreaterThan(5);
  });

  it('should differ between encodings on the same text', async () => {
    const o200k = await createGptTokenizer({ encoding: 'o200k_base' });
    const cl100k = await createGptTokenizer({ encoding: 'cl100k_base' });
    const text = 'Привет, мир! これは日本語のテキストです。';
    expect(cl100k.name).toBe('gpt-tokenizer:cl100k_base');
    expect(o200k.countTokens(text)).not.toBe(cl100k.countTokens(text));
  });
});
