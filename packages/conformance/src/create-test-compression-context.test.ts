import { getHistoryTokenTarget, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { createTestCompressionContext } from './create-test-compression-context.js';
import { MockTokenizer } from './mocks/mock-tokenizer.js';

const history: HistoryEntry[] = [
  { speaker: 'human', blocks: [{ type: 'text', text: 'one two three four' }] },
  { speaker: 'ai', blocks: [{ type: 'text', text: 'five six' }] },
];
const words = new MockTokenizer((text) => text.split(' ').length);

describe('createTestCompressionContext', () => {
  it('should make the request "just full" by default, so the target is below the history', () => {
    const context = createTestCompressionContext({ history, tokenizer: words, system: [{ type: 'text', text: 'be brief' }] });
    // 4 + 3 and 2 + 3 tokens of history, 2 of system.
    expect(context.budget).toEqual({ contextLimit: 14, threshold: 0.85, targetTokens: 7, overheadTokens: 2 });
    expect(getHistoryTokenTarget(context.budget)).toBe(5);
  });

  it('should freeze the history and the context, and leave the caller data alone', () => {
    const context = createTestCompressionContext({ history, contextLimit: 1_000 });
    expect(Object.isFrozen(context)).toBe(true);
    expect(Object.isFrozen(context.history[0])).toBe(true);
    expect(Object.isFrozen(history[0])).toBe(false);
    expect(() => (context.history as HistoryEntry[]).push(history[0] as HistoryEntry)).toThrow(TypeError);
  });
});
