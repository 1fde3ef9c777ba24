import { createCharacterTokenizer, createTestCompressionContext } from '@ctx/conformance';
import {
  findNewToolPairingProblems,
  getHistoryTokenTarget,
  type Conversation,
  type HistoryEntry,
  type ToolResponseBlock,
} from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, measureRetention } from '@ctx/retention';
import { corpusExists, loadCorpusConversations } from '@ctx/test-corpus';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import type { TruncationSettingsInput } from './truncation-settings.js';
import { createTruncationStrategy } from './truncation-strategy.js';

if (!corpusExists) console.warn('Skipping the truncation corpus tests: ../shared/corpus not found (set CTX_CORPUS).');

const conversations = corpusExists ? loadCorpusConversations() : [];

/** The marker `cutOversizedToolResults` (from `@ctx/core`) puts in a tool result it cuts to its beginning and end. */
const cutMarker = 'were cut by ctx to fit the context window';

const resultText = (block: ToolResponseBlock) => (typeof block.result === 'string' ? block.result : JSON.stringify(block.result));

/** Call ids of the tool results cut to their beginning and end to fit the budget. */
function cutCallIds(history: readonly HistoryEntry[]): Set<string> {
  return new Set(
    history.flatMap((entry) =>
      entry.blocks.filter((block) => block.type === 'tool_response' && resultText(block).includes(cutMarker)).map((block) => (block as ToolResponseBlock).callId),
    ),
  );
}

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
      // Error results stay verbatim unless the history could not fit the target otherwise: then the cut ones keep
      // their beginning and end (preserveErrors yields to cutOversizedToolResults last).
      const cut = cutCallIds(after.history);
      expect(retention.errors.missing.filter((missing) => !cut.has(/\(call ([^)]+)\)/.exec(missing)?.[1] ?? ''))).toEqual([]);
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
      // Both are cut to the target when they cannot reach it by themselves.
      const target = getHistoryTokenTarget(truncated.context.budget);
      expect(tokens(suppressed.after.history), name).toBeLessThanOrEqual(Math.max(target, tokens(truncated.after.history)));
    }
  });
});

describe.skipIf(!corpusExists)('createTruncationStrategy on a giant newest tool output (psf__requests-1142)', () => {
  const name = 'openai-chat/mini-swe-agent/psf__requests-1142.traj.json';
  const conversation = conversations.find((item) => item.name === name)?.conversation;
  // A mini-swe-agent run whose last observation (an 880 KB `git diff`) is ~450k tokens: more than any 128k window.
  const contextFor = async () =>
    createTestCompressionContext({
      history: conversation?.history ?? [],
      tokenizer: await createGptTokenizer(),
      contextLimit: 128_000,
      ...(conversation?.system === undefined ? {} : { system: conversation.system }),
    });

  it('should cut it to its beginning and end so the history fits a 128k window, valid for both providers', async () => {
    if (conversation === undefined) throw new Error(`${name} is not in the corpus`);
    const context = await contextFor();
    const before = context.tokenCounter.countEntries(context.history);
    expect(before).toBeGreaterThan(400_000);
    const outcome = await createTruncationStrategy().compress(context);
    if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}`);
    const after = outcome.newHistory;
    expect(context.tokenCounter.countEntries(after)).toBeLessThanOrEqual(getHistoryTokenTarget(context.budget));
    expect(outcome.warnings?.map((warning) => warning.type)).not.toContain('target-not-met');
    expect(findNewToolPairingProblems(context.history, after)).toEqual([]);
    expect(findNewValidityProblems(checkProviderValidity(conversation), checkProviderValidity({ ...conversation, history: after }))).toEqual({
      anthropic: [],
      openai: [],
    });
    // The newest observation keeps its beginning and its end, with the marker between them.
    const original = resultText(context.history.at(-1)?.blocks[0] as ToolResponseBlock);
    const kept = resultText(after.at(-1)?.blocks[0] as ToolResponseBlock);
    expect(kept).toContain(cutMarker);
    expect(original.startsWith(kept.slice(0, 200))).toBe(true);
    expect(original.endsWith(kept.slice(-200))).toBe(true);
    expect(outcome.metadata.counts?.['toolResultsCut']).toBeGreaterThanOrEqual(1);
    expect(outcome.warnings?.map((warning) => warning.message).join('\n')).toMatch(/cut 1 tool result to its beginning and end.*bash \(action-142\)/);
    expect(measureRetention(conversation, { ...conversation, history: after }).userTexts.missing).toEqual([]);
  });

  it('should leave it whole, and say the target was not met, with cutOversizedToolResults: false', async () => {
    const context = await contextFor();
    const outcome = await createTruncationStrategy({ cutOversizedToolResults: false }).compress(context);
    if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}`);
    expect(outcome.newHistory.at(-1)).toBe(context.history.at(-1));
    expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeGreaterThan(128_000);
    expect(outcome.warnings?.map((warning) => warning.type)).toContain('target-not-met');
  });
});
