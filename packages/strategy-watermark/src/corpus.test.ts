import { createCharacterTokenizer } from '@ctx/conformance';
import {
  HistoryService,
  createCompressionOrchestrator,
  createCompressionBudget,
  createTokenCounter,
  findNewToolPairingProblems,
  type CompressionStrategy,
  type Conversation,
  type HistoryEntry,
} from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, measureRetention } from '@ctx/retention';
import { corpusExists, loadCorpusConversations, type CorpusConversation } from '@ctx/test-corpus';
import { describe, expect, it } from 'vitest';
import { findLatestCheckpointCall } from './find-checkpoint-call.js';
import { findTurnStart } from './find-watermark-boundary.js';
import { createStatefulWatermarkStrategy } from './stateful-watermark-strategy.js';
import { createWatermarkStrategy } from './watermark-strategy.js';

if (!corpusExists) console.warn('Skipping the watermark corpus tests: corpus not found');

const conversations: CorpusConversation[] = corpusExists ? loadCorpusConversations() : [];
const tokenCounter = createTokenCounter(createCharacterTokenizer());

const toolNamesOf = (history: readonly HistoryEntry[]) =>
  [...new Set(history.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.name] : []))))];

const nonBlankTexts = (history: readonly HistoryEntry[]) =>
  history.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'text' && block.text.trim() !== '' ? [block.text] : [])));

/**
 * Replays a session through a history service and the orchestrator, a pass before every model call (no window is
 * reached: only the continuous pass runs). Returns how many passes applied something, and the service.
 */
async function replayTurnByTurn(strategy: CompressionStrategy, history: readonly HistoryEntry[]) {
  const service = new HistoryService({ tokenCounter });
  const orchestrator = createCompressionOrchestrator({ history: service, strategies: [strategy], contextLimit: 100_000_000 });
  let applied = 0;
  for (const entry of history) {
    if (entry.speaker === 'ai') {
      const report = await orchestrator.ensureCompressionBeforeSend();
      if (report.passes.some((pass) => pass.outcome === 'applied')) applied++;
    }
    service.add(entry);
  }
  await orchestrator.ensureCompressionBeforeSend();
  orchestrator.dispose();
  return { applied, service };
}

async function compressWith(conversation: Conversation, checkpointToolNames: readonly string[]) {
  const { history } = conversation;
  const outcome = await createWatermarkStrategy({ checkpointToolNames: [...checkpointToolNames] }).compress({
    history,
    system: conversation.system ?? [],
    tools: conversation.tools ?? [],
    tokenCounter,
    budget: createCompressionBudget({ contextLimit: Math.max(1, tokenCounter.countEntries(history)), threshold: 0.85 }),
  });
  return outcome;
}

/** What every watermark result on a real session must satisfy. */
function expectFaithfulRemoval(conversation: Conversation, output: readonly HistoryEntry[], checkpointToolNames: readonly string[]) {
  const { history } = conversation;
  const latest = findLatestCheckpointCall(history, { toolNames: checkpointToolNames });
  if (latest === undefined) throw new Error('applied without a checkpoint call');
  const boundary = findTurnStart(history, latest.entryIndex);
  const tail = output.slice(output.length - (history.length - boundary));
  tail.forEach((entry, index) => expect(entry).toBe(history[boundary + index]));
  const head = output.slice(0, output.length - tail.length);
  expect(head.flatMap((entry) => entry.blocks).filter((block) => block.type === 'tool_call' || block.type === 'tool_response')).toEqual([]);
  expect(nonBlankTexts(output)).toEqual(nonBlankTexts(history));
  expect(findNewToolPairingProblems(history, output)).toEqual([]);
  const after = { ...conversation, history: output };
  expect(findNewValidityProblems(checkProviderValidity(conversation), checkProviderValidity(after))).toEqual({ anthropic: [], openai: [] });
  const retention = measureRetention(conversation, after);
  expect(retention.userTexts.fraction).toBe(1);
  expect(retention.thinking.fraction).toBe(1);
  expect(tokenCounter.countEntries(output)).toBeLessThan(tokenCounter.countEntries(history));
}

describe.skipIf(!corpusExists)('watermark strategies on the corpus', () => {
  it('should do nothing with the default checkpoint tools, which no recorded session calls', () => {
    expect(conversations.length).toBeGreaterThan(20);
    for (const { name, conversation } of conversations) {
      expect(createWatermarkStrategy().optimize?.(conversation.history, {
        readWritePruning: true,
        fileDedupe: true,
        recencyPruning: false,
        recencyRetention: 3,
        workspaceRoot: '/',
      }).removals, name).toEqual([]);
    }
  });

  it('should remove only tool history before the newest TodoWrite in every Claude Code session that keeps a todo list', async () => {
    const withTodos = conversations.filter((item) => toolNamesOf(item.conversation.history).includes('TodoWrite'));
    // claude-code-viewer ×2 and vsla ×3.
    expect(withTodos.map((item) => item.name.split('/')[1])).toEqual(['claude-code-viewer', 'claude-code-viewer', 'vsla', 'vsla', 'vsla']);
    for (const { name, conversation } of withTodos) {
      const outcome = await compressWith(conversation, ['TodoWrite']);
      expect(outcome.type, name).toBe('applied');
      if (outcome.type === 'applied') expectFaithfulRemoval(conversation, outcome.newHistory, ['TodoWrite']);
    }
  });

  it('should stay pair-valid and provider-valid in every format when every tool is a checkpoint (split turns, text actions, repeated ids)', async () => {
    let applied = 0;
    for (const { name, conversation } of conversations) {
      const toolNames = toolNamesOf(conversation.history);
      const outcome = await compressWith(conversation, toolNames);
      if (toolNames.length === 0) {
        expect(outcome.type, name).toBe('no-op');
        continue;
      }
      // A session whose only tool history is the newest turn has nothing before the watermark.
      if (outcome.type === 'no-op') {
        expect(outcome.reason, name).toBe('too-few-compressible');
        continue;
      }
      expectFaithfulRemoval(conversation, outcome.newHistory, toolNames);
      applied++;
    }
    // All but the three compaction sub-agents (no tools) and spotter/short.jsonl (tools only in its newest turn).
    expect(applied).toBe(conversations.length - 4);
  });

  it('should end a Claude Code session replayed turn by turn with the stateful strategy where the stateless one is', async () => {
    const session = conversations.find((item) => item.name === 'claude-code/vsla/d7d349f9-c243-46e2-9a32-4a0eddfc634b.jsonl');
    if (session === undefined) throw new Error('corpus session missing');
    const { history } = session.conversation;
    const stateful = createStatefulWatermarkStrategy({ checkpointToolNames: ['TodoWrite'] });
    const { applied, service } = await replayTurnByTurn(stateful, history);
    // 15 TodoWrite calls; the watermark followed each one.
    expect(applied).toBeGreaterThan(5);
    expect(stateful.getWatermark()).toBe(findLatestCheckpointCall(history, { toolNames: ['TodoWrite'] })?.callId);
    const stateless = await compressWith(session.conversation, ['TodoWrite']);
    expect(stateless.type === 'applied' && stateless.newHistory).toEqual(service.getRawHistory());
  });

  it('should end a Claude Code session replayed turn by turn with one stateless strategy where a single pass ends', async () => {
    // The same instance before every model call: it remembers the newest checkpoint and the entries with nothing left
    // to remove, and must answer as a pass over the whole session does.
    const session = conversations.find((item) => item.name === 'claude-code/vsla/d7d349f9-c243-46e2-9a32-4a0eddfc634b.jsonl');
    if (session === undefined) throw new Error('corpus session missing');
    const reused = createWatermarkStrategy({ checkpointToolNames: ['TodoWrite'] });
    const { applied, service } = await replayTurnByTurn(reused, session.conversation.history);
    expect(applied).toBeGreaterThan(5);
    const single = await compressWith(session.conversation, ['TodoWrite']);
    expect(single.type === 'applied' && single.newHistory).toEqual(service.getRawHistory());
  });
});
