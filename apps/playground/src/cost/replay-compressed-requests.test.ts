import { createTokenCounter, markGeneratedEntry, type HistoryEntry, type Tokenizer } from '@ctx/core';
import { claudeCodeCompactionGenerator } from '@ctx/format-claude-code';
import { describe, expect, it } from 'vitest';
import { listRecordedModelCalls } from '../calibration/claude-code-model-calls.js';
import { replayCompressedRequests } from './replay-compressed-requests.js';

const words: Tokenizer = {
  specificationVersion: 'v1',
  name: 'words',
  countTokens: (text) => text.split(/\s+/).filter((word) => word !== '').length,
};
const human = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const ai = (id: string, text: string): HistoryEntry => ({
  speaker: 'ai',
  blocks: [{ type: 'text', text }],
  metadata: { id, usage: { inputTokens: 10, outputTokens: 1, cacheReadTokens: 100 } },
});

describe('replayCompressedRequests', () => {
  it('should measure each request before its response, the previous request being the cached prefix, and restart after a compaction', async () => {
    const tokenCounter = createTokenCounter(words, { entryOverheadTokens: 0 });
    const summary = markGeneratedEntry(human('summary of it'), claudeCodeCompactionGenerator);
    const conversation = { history: [human('a b c'), ai('m1', 'd e'), human('f'), ai('m2', 'g'), summary, human('h i'), ai('m3', 'j')] };
    const { calls } = listRecordedModelCalls(conversation, tokenCounter);
    const { requests, rewrites } = await replayCompressedRequests({ conversation, calls, tokenCounter, window: 200_000 });
    expect(requests).toEqual([
      { messageId: 'm1', tokens: 3, prefixTokens: 0 },
      { messageId: 'm2', tokens: 6, prefixTokens: 3 },
      { messageId: 'm3', tokens: 5, prefixTokens: 0 },
    ]);
    expect(rewrites).toBe(0);
  });
});
