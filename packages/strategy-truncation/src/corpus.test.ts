import { createCharacterTokenizer, createTestCompressionContext } from '@ctx/conformance';
import { findNewToolPairingProblems, type Conversation } from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, measureRetention } from '@ctx/retention';
import { corpusExists, loadCorpusConversations } from '@ctx/test-corpus';
import { describe, expect, it } from 'vitest';
import type { TruncationSettingsInput } from './truncation-settings.js';
import { createTruncationStrategy } from './truncation-strategy.js';

if (!corpusExists) console.warn('Skipping the truncation corpus tests: ../shared/corpus not found (set CTX_CORPUS).');

const conversations = corpusExists ? loadCorpusConversations() : [];

/** Compresses a conversation as `ctx compare` does: the window is the conversation's own size. */
async function compress(conversation: Conversation, settings?: TruncationSettingsInput) {
  const context = createTestCompressionContext({
    history: conversation.history,
    tokenizer: createCharacterTokenizer(),
    ...(conversation.system === undefined ? {} : { system: conversation.system }),
    ...(conversation.tools === undefined ? {} : { tools: conversation.tools }),
  });
  const outcome = await createTruncationStrategy(settings).compress(context);
  const after: Conversation = { ...conversation, history: outcome.type === 'applied' ? outcome.newHistory : conversation.history };
  return { context, outcome, after };
}

describe.skipIf(!corpusExists)('createTruncationStrategy on the corpus', () => {
  it.each(conversations.map((item) => [item.name, item.conversation] as const))(
    'should keep %s valid, with every user text, error and thinking block it keeps verbatim',
    async (_name, conversation) => {
      const { context, outcome, after } = await compress(conversation);
      expect(['applied', 'too-few-compressible']).toContain(outcome.type === 'applied' ? 'applied' : outcome.reason);
      expect(findNewToolPairingProblems(conversation.history, after.history)).toEqual([]);
      expect(findNewValidityProblems(checkProviderValidity(conversation), checkProviderValidity(after))).toEqual({ anthropic: [], openai: [] });
      const retention = measureRetention(conversation, after);
      expect(retention.userTexts.missing).toEqual([]);
      expect(retention.errors.missing).toEqual([]);
      expect(retention.thinking.fraction).toBe(1);
      if (outcome.type === 'applied') {
        const saved = context.tokenCounter.countEntries(context.history) - context.tokenCounter.countEntries(outcome.newHistory);
        expect(outcome.metadata.counts?.['tokensSaved']).toBe(saved);
      }
    },
  );

  it('should cut the long Claude Code sessions by more than half with the defaults', async () => {
    const long = conversations.filter((item) => item.format === 'claude-code' && /spotter\/[0-9a-f-]+\.jsonl$/.test(item.name));
    expect(long).toHaveLength(3);
    for (const { name, conversation } of long) {
      const { context, after } = await compress(conversation);
      const before = context.tokenCounter.countEntries(conversation.history);
      expect(context.tokenCounter.countEntries(after.history) / before, name).toBeLessThan(0.5);
    }
  });

  it('FR-TR-002 suppress mode on real transcripts: should stay valid and reduce more than truncate mode', async () => {
    for (const { name, conversation } of conversations.filter((item) => /mini-swe-agent|openhands|swe-agent\//.test(item.name))) {
      const truncated = await compress(conversation);
      const suppressed = await compress(conversation, { truncationMode: 'suppress' });
      expect(findNewValidityProblems(checkProviderValidity(conversation), checkProviderValidity(suppressed.after)), name).toEqual({
        anthropic: [],
        openai: [],
      });
      const tokens = (history: Conversation['history']) => truncated.context.tokenCounter.countEntries(history);
      expect(tokens(suppressed.after.history), name).toBeLessThanOrEqual(tokens(truncated.after.history));
    }
  });
});
