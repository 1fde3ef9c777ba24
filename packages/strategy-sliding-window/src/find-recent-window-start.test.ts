import { createTokenCounter, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { findRecentWindowStart } from './find-recent-window-start.js';
import { findSafeSplitIndex } from './find-safe-split-index.js';
import { aiText, call, human, result, toolOnlyConversation, wordTokenizer, words } from './test-support/entries.js';

const counter = () => createTokenCounter(wordTokenizer());

describe('findRecentWindowStart', () => {
  it('spec 002 findSplitIndex: should start the window after the entry that pushes it over the budget', () => {
    // Ten entries of 13 tokens (10 words + 3): a 40-token window holds three of them.
    const history = Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? human(words(10)) : aiText(words(10))));
    expect(findRecentWindowStart(history, counter(), 40)).toBe(7);
    expect(findRecentWindowStart(history, counter(), 39)).toBe(7);
    expect(findRecentWindowStart(history, counter(), 38)).toBe(8);
  });

  it('spec 002 Proposal 4: should count tool-call parameters and tool results, not only text', () => {
    // Two big results near the end: counting only text would put both in a 500-token window.
    const history: HistoryEntry[] = [
      human('hello'),
      aiText('let me check'),
      call('big', 'a b c'),
      result('big', words(1_000)),
      call('another', 'd e f'),
      result('another', words(1_000)),
      human('ok'),
      aiText('done'),
    ];
    const tokenCounter = counter();
    const split = findSafeSplitIndex(history, findRecentWindowStart(history, tokenCounter, 500));
    const recentTokens = tokenCounter.countEntries(history.slice(split?.index));
    expect(recentTokens).toBeLessThanOrEqual(500 * 2);
    expect(split?.index).toBe(6);
  });

  it('spec 002 findSplitIndex: should keep the newest two entries on the first pass when they alone exceed the budget', () => {
    const history = [human(words(5)), aiText(words(5)), human(words(300)), aiText(words(300))];
    expect(findRecentWindowStart(history, counter(), 100)).toBe(2);
    expect(findRecentWindowStart([human(words(300)), aiText(words(300))], counter(), 100)).toBe(0);
  });

  it('spec 002 findSplitIndex: should split in the middle when the whole history fits (a caller that asks anyway)', () => {
    const history = Array.from({ length: 6 }, () => human('a'));
    expect(findRecentWindowStart(history, counter(), 1_000)).toBe(3);
    expect(findRecentWindowStart(history.slice(0, 2), counter(), 1_000)).toBe(1);
  });

  it('spec 002 all-tool: should size the window by call parameters and results when there is no text at all', () => {
    // Ten pairs; each call is 4 tokens (name + parameters + overhead), each result 53. A text-only count would see
    // zero tokens and put the whole history in the window.
    const history = toolOnlyConversation(10, () => words(50));
    const tokenCounter = counter();
    const start = findRecentWindowStart(history, tokenCounter, 120);
    expect(start).toBeGreaterThan(0);
    expect(tokenCounter.countEntries(history.slice(start))).toBeLessThanOrEqual(120);
    expect(tokenCounter.countEntries(history.slice(start - 1))).toBeGreaterThan(120);
  });

  it('spec 002 all-tool: findSplitIndex then safeSplitIndex should split an all-tool conversation between two pairs, never at 0', () => {
    const history = toolOnlyConversation(10, () => words(50));
    const tokenCounter = counter();
    for (const budget of [0, 30, 60, 120, 300, 500]) {
      const split = findSafeSplitIndex(history, findRecentWindowStart(history, tokenCounter, budget));
      expect(split?.index, `budget ${budget}`).toBeGreaterThanOrEqual(2);
      expect((split?.index ?? 1) % 2, `budget ${budget}`).toBe(0);
      expect(split?.walk, `budget ${budget}`).not.toBe('text-boundary');
    }
  });

  it('should count each entry once through the counter cache', () => {
    const tokenizer = wordTokenizer();
    const tokenCounter = createTokenCounter(tokenizer);
    const history = Array.from({ length: 50 }, () => human(words(3)));
    findRecentWindowStart(history, tokenCounter, 60);
    findRecentWindowStart(history, tokenCounter, 90);
    expect(tokenizer.calls.length).toBeLessThanOrEqual(history.length);
  });
});
