import { afterAll, describe, expect, it } from 'vitest';
import { createTiktokenTokenizer, type TiktokenTokenizer } from './tiktoken-tokenizer.js';

describe('createTiktokenTokenizer', () => {
  const created: TiktokenTokenizer[] = [];
  afterAll(() => created.forEach((tokenizer) => tokenizer.dispose()));

  it('should count o200k tokens by default', async () => {
    const tokenizer = await createTiktokenTokenizer();
    created.push(tokenizer);
    expect(tokenizer.name).toBe('tiktoken:o200k_base');
    expect(tokenizer.countTokens('hello world')).toBe(2);
  });

  it('should count special-token strings as text instead of throwing', async () => {
    const tokenizer = await createTiktokenTokenizer();
    created.push(tokenizer);
    expect(tokenizer.countTokens('x <|endoftext|> y')).toBeGreaterThan(3);
  });

  it('should tolerate dispose() being called twice', async () => {
    const tokenizer = await createTiktokenTokenizer({ encoding: 'cl100k_base' });
    tokenizer.dispose();
    expect(() => tokenizer.dispose()).not.toThrow();
  });
});
