import { describe, expect, it } from 'vitest';
import { HistoryService } from '../history/history-service.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import { createCountingTokenizer } from './counting-tokenizer.js';
import { createTokenCounter } from './token-counter.js';

describe('createCountingTokenizer', () => {
  it('should return what the wrapped tokenizer returns, under the same name', () => {
    const words = createWordTokenizer();
    const { tokenizer } = createCountingTokenizer(words);
    expect(tokenizer.countTokens('three little words')).toBe(3);
    expect(tokenizer.name).toBe(words.name);
    expect(tokenizer.specificationVersion).toBe('v1');
  });

  it('should keep the wrapped tokenizer\'s additiveAtLineStarts, so counting through it caches the same chunks', () => {
    expect(createCountingTokenizer({ ...createWordTokenizer(), additiveAtLineStarts: true }).tokenizer.additiveAtLineStarts).toBe(true);
    expect(createCountingTokenizer(createWordTokenizer()).tokenizer.additiveAtLineStarts).toBeUndefined();
  });

  it('should count calls, characters, tokens and the time spent in the wrapped tokenizer', () => {
    let clock = 0;
    const slow = createWordTokenizer((text) => {
      clock += 5;
      return text.split(' ').length;
    });
    const counting = createCountingTokenizer(slow, { now: () => clock });
    counting.tokenizer.countTokens('a b');
    counting.tokenizer.countTokens('c d e');
    expect(counting.stats()).toEqual({ calls: 2, characters: 3 + 5, tokens: 5, milliseconds: 10 });
  });

  it('should start again from 0 after reset', () => {
    const counting = createCountingTokenizer(createWordTokenizer());
    counting.tokenizer.countTokens('a b');
    counting.reset();
    expect(counting.stats()).toEqual({ calls: 0, characters: 0, tokens: 0, milliseconds: 0 });
  });

  it('should let the wrapped tokenizer error through and still count the call', () => {
    const counting = createCountingTokenizer(
      createWordTokenizer(() => {
        throw new Error('tokenizer down');
      }),
    );
    expect(() => counting.tokenizer.countTokens('abc')).toThrow('tokenizer down');
    expect(counting.stats()).toMatchObject({ calls: 1, characters: 3, tokens: 0 });
  });

  it('should show a history tokenizing each text once: characters tokenized equal the characters added', async () => {
    const counting = createCountingTokenizer(createWordTokenizer());
    const history = new HistoryService({ tokenCounter: createTokenCounter(counting.tokenizer) });
    history.add({ speaker: 'human', blocks: [{ type: 'text', text: 'read the file' }] });
    await history.waitForTokenUpdates();
    history.add({ speaker: 'ai', blocks: [{ type: 'text', text: 'done' }] });
    await history.waitForTokenUpdates();
    expect(counting.stats().characters).toBe('read the file'.length + 'done'.length);
  });
});
