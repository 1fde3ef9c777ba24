import {
  applyDensityResultToHistory,
  createCompressionBudget,
  createTokenCounter,
  densityDefaults,
  findNewToolPairingProblems,
  type DensityConfig,
  type HistoryEntry,
} from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, listUserTexts, measureRetention } from '@ctx/retention';
import { corpusExists, loadCorpusConversations, type CorpusConversation } from '@ctx/test-corpus';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHighDensityStrategy } from './high-density-strategy.js';
import type { HighDensitySettingsInput } from './high-density-settings.js';

if (!corpusExists) console.warn('Skipping the high-density corpus tests: corpus not found');

// What the orchestrator passes by default; its root is '/': the strategy then uses the root the session recorded.
const defaults: DensityConfig = { ...densityDefaults, workspaceRoot: '/' };

const modes: readonly { readonly name: string; readonly config: DensityConfig; readonly settings: HighDensitySettingsInput }[] = [
  { name: 'defaults', config: defaults, settings: {} },
  { name: 'recency pruning', config: { ...defaults, recencyPruning: true }, settings: {} },
  { name: 'foldEdits with recency pruning', config: { ...defaults, recencyPruning: true }, settings: { foldEdits: true } },
];

function optimizeWith(history: readonly HistoryEntry[], mode: (typeof modes)[number]) {
  const strategy = createHighDensityStrategy(mode.settings);
  const result = strategy.optimize?.(history, mode.config);
  if (result === undefined) throw new Error('high-density must optimize');
  return { strategy, result };
}

describe.skipIf(!corpusExists)('createHighDensityStrategy on the corpus', () => {
  let conversations: readonly CorpusConversation[] = [];
  const find = (name: string): CorpusConversation => {
    const found = conversations.find((item) => item.name === name);
    if (found === undefined) throw new Error(`${name} is not in the corpus`);
    return found;
  };

  beforeAll(() => {
    conversations = loadCorpusConversations();
  });

  for (const mode of modes) {
    it(`should return an accepted, pair-valid, idempotent result that keeps every user text (${mode.name})`, () => {
      expect(conversations.length).toBeGreaterThan(20);
      for (const { name, conversation } of conversations) {
        const { history } = conversation;
        const { strategy, result } = optimizeWith(history, mode);
        const next = applyDensityResultToHistory(history, result, 'high-density');
        expect(findNewToolPairingProblems(history, next), name).toEqual([]);
        expect(listUserTexts(next), name).toEqual(
          listUserTexts(history).map((text) => ({ ...text, entryIndex: next.indexOf(history[text.entryIndex] as HistoryEntry) })),
        );
        const again = strategy.optimize?.(next, mode.config);
        expect(again?.removals, name).toEqual([]);
        expect(again?.replacements.size, name).toBe(0);
      }
    });
  }

  it('should never make a corpus conversation an invalid Anthropic or OpenAI request', () => {
    for (const { name, conversation } of conversations) {
      const { result } = optimizeWith(conversation.history, modes[2] as (typeof modes)[number]);
      const next = applyDensityResultToHistory(conversation.history, result);
      const problems = findNewValidityProblems(checkProviderValidity(conversation), checkProviderValidity({ ...conversation, history: next }));
      expect(problems, name).toEqual({ anthropic: [], openai: [] });
    }
  });

  it('BR-PRUNE-001: should prune read→write pairs on Claude Code, mini-swe-agent, SWE-agent, OpenHands and gemini-cli', () => {
    const pruned = (name: string) =>
      optimizeWith(find(name).conversation.history, modes[0] as (typeof modes)[number]).result.metadata.readWritePairsPruned ?? 0;
    expect(pruned('claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl')).toBeGreaterThanOrEqual(20);
    expect(pruned('claude-code/vsla/0a725fb5-6378-432a-9e84-9f3f49d4043d.jsonl')).toBeGreaterThanOrEqual(20);
    expect(pruned('openai-chat/mini-swe-agent/sympy__sympy-13091.traj.json')).toBeGreaterThanOrEqual(20);
    expect(pruned('openai-chat/mini-swe-agent/django__django-11138.traj.json')).toBeGreaterThanOrEqual(10);
    expect(pruned('swe-agent/gpt4__pydicom-1458.traj')).toBeGreaterThanOrEqual(1);
    expect(pruned('openhands/multi_swe_bench_examples_output.jsonl#1')).toBeGreaterThanOrEqual(5);
    expect(pruned('gemini-cli/session-2026-01-11T00-25-17b4d5e9.json')).toBeGreaterThanOrEqual(1);
  });

  it('should fold edits into reads on Claude Code sessions with foldEdits, removing fewer reads', () => {
    const name = 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl';
    const history = find(name).conversation.history;
    const plain = optimizeWith(history, { name: 'defaults', config: defaults, settings: {} }).result.metadata;
    const folded = optimizeWith(history, { name: 'fold', config: defaults, settings: { foldEdits: true } }).result.metadata;
    expect(folded.readsFolded).toBeGreaterThan(0);
    expect((folded.readWritePairsPruned ?? 0) + (folded.readsFolded ?? 0)).toBe(plain.readWritePairsPruned);
  });

  it('should summarize the latest state of a file last: compress keeps every one it does not report (Claude Code)', async () => {
    const tokenCounter = createTokenCounter(await createGptTokenizer());
    // Latest file states compress kept (of the states in its input) before this rule, per session and mode: the
    // rule must never keep fewer.
    const keptBeforeTheRule = new Map([
      ['claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl defaults', 4],
      ['claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl foldEdits', 4],
      ['claude-code/spotter/tool_heavy.jsonl defaults', 1],
      ['claude-code/spotter/tool_heavy.jsonl foldEdits', 1],
      ['claude-code/vsla/0a725fb5-6378-432a-9e84-9f3f49d4043d.jsonl defaults', 5],
      ['claude-code/vsla/0a725fb5-6378-432a-9e84-9f3f49d4043d.jsonl foldEdits', 4],
      ['claude-code/vsla/d7d349f9-c243-46e2-9a32-4a0eddfc634b.jsonl foldEdits', 0],
    ]);
    let compressed = 0;
    let untouched = 0;
    for (const { name, format, conversation } of conversations) {
      if (format !== 'claude-code') continue;
      for (const [modeName, settings] of [['defaults', {}], ['foldEdits', { foldEdits: true }]] as const) {
        const { strategy, result } = optimizeWith(conversation.history, { name: modeName, config: defaults, settings });
        const history = applyDensityResultToHistory(conversation.history, result, 'high-density');
        // The CLI's default window is the transcript's own size; compress fires over 0.85 of it.
        const window = tokenCounter.countEntries(conversation.history);
        if (tokenCounter.countEntries(history) <= window * 0.85) continue;
        const budget = createCompressionBudget({ contextLimit: window, threshold: 0.85 });
        const compression = await strategy.compress({ history, system: [], tools: [], tokenCounter, budget });
        if (compression.type !== 'applied') continue;
        compressed++;
        const label = `${name} ${modeName}`;
        const { fileStates } = measureRetention({ ...conversation, history }, { ...conversation, history: compression.newHistory });
        const reported = compression.metadata.counts?.latestFileStatesSummarized ?? Number.NaN;
        // Every latest state lost is one the result reports; none is lost when cheaper results were enough.
        expect(fileStates.total - fileStates.kept, label).toBeLessThanOrEqual(reported);
        if (reported === 0) {
          untouched++;
          expect(fileStates.fraction, label).toBeGreaterThanOrEqual(0.9);
        }
        expect(fileStates.kept, label).toBeGreaterThanOrEqual(keptBeforeTheRule.get(label) ?? fileStates.total);
      }
    }
    expect(compressed).toBeGreaterThan(5);
    expect(untouched).toBeGreaterThan(0);
  });

  it('BR-THRESH-004: should compress long Claude Code sessions toward the target, keeping user texts and pairs', async () => {
    const tokenCounter = createTokenCounter(await createGptTokenizer());
    for (const name of [
      'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl',
      'claude-code/vsla/0a725fb5-6378-432a-9e84-9f3f49d4043d.jsonl',
    ]) {
      const { history } = find(name).conversation;
      const tokens = tokenCounter.countEntries(history);
      const budget = createCompressionBudget({ contextLimit: tokens, threshold: 0.85 });
      const result = await createHighDensityStrategy().compress({ history, system: [], tools: [], tokenCounter, budget });
      if (result.type !== 'applied') throw new Error(`${name}: expected applied, got ${result.reason}`);
      expect(tokenCounter.countEntries(result.newHistory), name).toBeLessThan(tokens * 0.75);
      expect(result.newHistory).toHaveLength(history.length);
      expect(findNewToolPairingProblems(history, result.newHistory), name).toEqual([]);
      expect(listUserTexts(result.newHistory), name).toEqual(listUserTexts(history));
    }
  });
});
