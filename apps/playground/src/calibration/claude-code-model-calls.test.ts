import { createTokenCounter, markGeneratedEntry, type HistoryEntry, type Tokenizer } from '@ctx/core';
import { claudeCodeCompactionGenerator } from '@ctx/format-claude-code';
import { describe, expect, it } from 'vitest';
import { listRecordedModelCalls } from './claude-code-model-calls.js';

const words: Tokenizer = {
  specificationVersion: 'v1',
  name: 'words',
  countTokens: (text) => text.split(/\s+/).filter((word) => word !== '').length,
};

const human = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const ai = (id: string, text: string, usage = { inputTokens: 10, cacheReadTokens: 100, cacheWriteTokens: 5 }): HistoryEntry => ({
  speaker: 'ai',
  blocks: [{ type: 'text', text }],
  metadata: { id, usage },
});

describe('listRecordedModelCalls', () => {
  it('should count the entries sent before each call, and add input, cache-write and cache-read tokens as the real size', () => {
    const counter = createTokenCounter(words, { entryOverheadTokens: 0 });
    const { calls } = listRecordedModelCalls({ history: [human('one two three'), ai('m1', 'four five'), human('six')] , }, counter);
    expect(calls).toEqual([{ messageId: 'm1', actualTokens: 115, estimatedTokens: 3, epoch: 0, entryIndex: 1 }]);
  });

  it('should count a message id once and skip calls with no input (synthetic messages)', () => {
    const counter = createTokenCounter(words, { entryOverheadTokens: 0 });
    const history = [human('a b'), ai('m1', 'c'), human('d'), ai('m1', 'e'), human('f'), ai('m2', 'g', { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 })];
    const { calls, skipped } = listRecordedModelCalls({ history }, counter);
    expect(calls.map((call) => call.messageId)).toEqual(['m1']);
    expect(skipped).toBe(2);
  });

  it('should count only the compaction summary and what follows it after a compaction', () => {
    const counter = createTokenCounter(words, { entryOverheadTokens: 0 });
    const summary = markGeneratedEntry(human('summary of it all'), claudeCodeCompactionGenerator);
    const history = [human('a long first prompt here'), ai('m1', 'answer'), summary, human('next'), ai('m2', 'done')];
    const { calls } = listRecordedModelCalls({ history }, counter);
    expect(calls.map((call) => [call.estimatedTokens, call.epoch])).toEqual([
      [5, 0],
      [5, 1],
    ]);
  });
});
