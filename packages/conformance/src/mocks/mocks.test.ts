import { describe, expect, it } from 'vitest';
import { MockCostModel } from './mock-cost-model.js';
import { MockSummarizer } from './mock-summarizer.js';
import { MockTokenizer, createCharacterTokenizer } from './mock-tokenizer.js';

describe('MockTokenizer', () => {
  it('should throw "not implemented" when given no response', () => {
    expect(() => new MockTokenizer().countTokens('x')).toThrow(/MockTokenizer: not implemented/);
  });

  it('should answer with a value, a list (last value repeats) or a function, and record calls', () => {
    expect(new MockTokenizer(7).countTokens('a')).toBe(7);
    const listed = new MockTokenizer([1, 2]);
    expect([listed.countTokens('a'), listed.countTokens('b'), listed.countTokens('c')]).toEqual([1, 2, 2]);
    expect(listed.calls).toEqual(['a', 'b', 'c']);
    expect(new MockTokenizer((text) => text.length).countTokens('four')).toBe(4);
  });

  it('should count one token per four characters with createCharacterTokenizer', () => {
    expect(createCharacterTokenizer().countTokens('abcdefghi')).toBe(3);
  });
});

describe('MockSummarizer', () => {
  it('should reject with "not implemented" when given no response, and still record the call', async () => {
    const summarizer = new MockSummarizer();
    await expect(summarizer.summarize({ entries: [] })).rejects.toThrow(/MockSummarizer: not implemented/);
    expect(summarizer.calls).toHaveLength(1);
  });

  it('should wrap a string answer as { text } and pass full results through', async () => {
    expect(await new MockSummarizer('short').summarize({ entries: [] })).toEqual({ text: 'short' });
    const usage = { inputTokens: 10, outputTokens: 2 };
    expect(await new MockSummarizer({ text: 'x', usage }).summarize({ entries: [] })).toEqual({ text: 'x', usage });
  });
});

describe('MockCostModel', () => {
  it('should price usage with the given function and record it', () => {
    const model = new MockCostModel((usage) => usage.inputTokens / 1_000_000);
    expect(model.price({ inputTokens: 2_000_000, outputTokens: 0 })).toBe(2);
    expect(model.calls).toEqual([{ inputTokens: 2_000_000, outputTokens: 0 }]);
    expect(() => new MockCostModel().price({ inputTokens: 1, outputTokens: 1 })).toThrow(/not implemented/);
  });
});
