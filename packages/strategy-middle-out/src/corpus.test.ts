import { createTestCompressionContext, MockSummarizer } from '@ctx/conformance';
import { parseHistory } from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems } from '@ctx/retention';
import { findThinkingToolLoopStart } from '@ctx/strategy-utils';
import { corpusExists, loadCorpusConversations } from '@ctx/test-corpus';
import { describe, expect, it } from 'vitest';
import { createMiddleOutStrategy } from './middle-out-strategy.js';

if (!corpusExists) console.warn('Skipping middle-out on the corpus sessions: corpus not found');

describe('middle-out on corpus sessions', () => {
  it.skipIf(!corpusExists)(
    'should keep every request Anthropic accepts when the turn still in its tool loop is summarized whole (no tail)',
    async () => {
      // Every point of a recorded session where the agent is in a tool loop that opened with thinking, compressed with
      // no room for a tail: the summary follows the head, which must not leave the request in a loop without thinking.
      let applied = 0;
      for (const { name, conversation } of loadCorpusConversations()) {
        const history = parseHistory(conversation.history);
        for (let end = 2; end <= history.length; end++) {
          const prefix = history.slice(0, end);
          if (findThinkingToolLoopStart(prefix) === undefined) continue;
          const before = checkProviderValidity({ history: prefix });
          for (const headShare of [0.05, 0.5]) {
            const context = createTestCompressionContext({ history: prefix, summarizer: new MockSummarizer('The earlier work.') });
            const result = await createMiddleOutStrategy({ headShare, tailShare: 0 }).compress(context);
            if (result.type !== 'applied') continue;
            applied++;
            const introduced = findNewValidityProblems(before, checkProviderValidity({ history: result.newHistory }));
            expect(introduced.anthropic, `${name} at ${end} entries, headShare ${headShare}`).toEqual([]);
          }
        }
      }
      expect(applied).toBeGreaterThan(100);
    },
    300_000,
  );
});
