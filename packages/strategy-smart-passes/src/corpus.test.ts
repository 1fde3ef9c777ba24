import { MockSummarizer, createCharacterTokenizer, createTestCompressionContext } from '@ctx/conformance';
import { findNewToolPairingProblems, type Conversation, type Summarizer } from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, measureRetention } from '@ctx/retention';
import { corpusExists, loadCorpusConversations } from '@ctx/test-corpus';
import { describe, expect, it } from 'vitest';
import { defaultPasses, summarizeOldToolResultsPass } from './default-passes.js';
import { createSmartPassesStrategy } from './smart-passes-strategy.js';

if (!corpusExists) console.warn('Skipping the smart-passes corpus tests: ../shared/corpus not found (set CTX_CORPUS).');

const sessions = corpusExists ? loadCorpusConversations().filter((item) => item.format === 'claude-code') : [];

/** Compresses a conversation as `ctx compare` does: the window is the conversation's own size. */
async function compress(conversation: Conversation, summarizer?: Summarizer, passes = defaultPasses) {
  const context = createTestCompressionContext({
    history: conversation.history,
    tokenizer: createCharacterTokenizer(),
    ...(conversation.system === undefined ? {} : { system: conversation.system }),
    ...(conversation.tools === undefined ? {} : { tools: conversation.tools }),
    ...(summarizer === undefined ? {} : { summarizer }),
  });
  const outcome = await createSmartPassesStrategy({ passes: [...passes] }).compress(context);
  const after: Conversation = { ...conversation, history: outcome.type === 'applied' ? outcome.newHistory : conversation.history };
  return { context, outcome, after };
}

describe.skipIf(!corpusExists)('createSmartPassesStrategy on the Claude Code sessions of the corpus', () => {
  it('should find Claude Code sessions to test on', () => {
    expect(sessions.length).toBeGreaterThan(0);
  });

  it.each(sessions.map((item) => [item.name, item.conversation] as const))(
    'should keep %s valid with the default passes, every user text, error and thinking block verbatim',
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

  it('FR-SM-006 should run the conditional summarize pass on a session still over 40,000 tokens after the mechanical passes', async () => {
    const name = 'claude-code/vsla/0a725fb5-6378-432a-9e84-9f3f49d4043d.jsonl';
    const conversation = sessions.find((item) => item.name === name)?.conversation;
    if (conversation === undefined) throw new Error(`${name} is not in the corpus`);
    const summarizer = new MockSummarizer({ text: 'Output summary.', usage: { inputTokens: 100, outputTokens: 3 } });
    const { outcome, after } = await compress(conversation, summarizer, [...defaultPasses, summarizeOldToolResultsPass]);
    if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}`);
    expect(summarizer.calls.length).toBeGreaterThan(0);
    expect(outcome.metadata).toMatchObject({
      llmCallMade: true,
      counts: { passesRun: 3, summarizerCalls: summarizer.calls.length, summarizerInputTokens: 100 * summarizer.calls.length },
    });
    expect(findNewToolPairingProblems(conversation.history, after.history)).toEqual([]);
    expect(measureRetention(conversation, after).userTexts.missing).toEqual([]);
  });
});
