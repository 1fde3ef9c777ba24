import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createTestCompressionContext } from '@ctx/conformance';
import {
  applyDensityResultToHistory,
  createTokenCounter,
  densityDefaults,
  parseHistory,
  type Conversation,
  type DensityConfig,
  type HistoryEntry,
  type ToolCallBlock,
  type ToolResponseBlock,
} from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, listUserTexts } from '@ctx/retention';
import { classifyToolResult, inferWorkspaceRoot } from '@ctx/strategy-utils';
import { corpusDirectory, corpusExists, loadCorpusConversations, type CorpusConversation } from '@ctx/test-corpus';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { expandHistory } from './expand-history.js';
import { listContentReferences } from './list-content-references.js';
import { createLosslessStrategy } from './lossless-strategy.js';
import { optimizeWith } from './test-support/optimize-with.js';
import { listTextLeaves, readTextLeaf } from './text-leaves.js';

if (!corpusExists) console.warn('Skipping the lossless corpus tests: corpus not found');

function densityConfig(history: readonly HistoryEntry[]): DensityConfig {
  return { ...densityDefaults, workspaceRoot: inferWorkspaceRoot(history) };
}

function userTexts(history: readonly HistoryEntry[]): string[] {
  return listUserTexts(history).map((item) => item.text);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

describe.skipIf(!corpusExists)('createLosslessStrategy on the corpus', () => {
  let conversations: CorpusConversation[] = [];
  const compressed = new Map<string, readonly HistoryEntry[]>();
  const reductions = new Map<string, number>();

  const counted = new Map<string, number>();
  let tokenizer: Awaited<ReturnType<typeof createGptTokenizer>>;

  beforeAll(async () => {
    conversations = loadCorpusConversations();
    tokenizer = await createGptTokenizer();
    const strategy = createLosslessStrategy();
    for (const { name, conversation } of conversations) {
      const context = createTestCompressionContext({ history: conversation.history, tokenizer });
      const result = await strategy.compress(context);
      const history = result.type === 'applied' ? result.newHistory : context.history;
      compressed.set(name, history);
      const before = context.tokenCounter.countEntries(context.history);
      const after = context.tokenCounter.countEntries(history);
      counted.set(name, after);
      reductions.set(name, 1 - after / before);
    }
  }, 120_000);

  it('should count every compressed conversation exactly, rewritten results summed from their originals\' chunk counts', () => {
    // The counter that planned counted each rewritten result from the chunks of its original (noteComposedText); a
    // counter without a content cache tokenizes every text whole.
    const whole = createTokenCounter(tokenizer, { contentCacheCharacters: 0 });
    for (const { name } of conversations) expect(counted.get(name), name).toBe(whole.countEntries(compressed.get(name) as readonly HistoryEntry[]));
  });

  it('FR-LC-003: should expand every compressed corpus conversation back to a deep-equal copy of the original', () => {
    expect(conversations.length).toBeGreaterThan(20);
    for (const { name, conversation } of conversations) {
      const history = compressed.get(name) as readonly HistoryEntry[];
      expect(expandHistory(history), name).toEqual(conversation.history);
    }
  });

  it('should keep every user text and add no Anthropic or OpenAI validity problem on any corpus conversation', () => {
    for (const { name, conversation } of conversations) {
      const after: Conversation = { ...conversation, history: compressed.get(name) as readonly HistoryEntry[] };
      const problems = findNewValidityProblems(checkProviderValidity(conversation), checkProviderValidity(after));
      expect([...problems.anthropic, ...problems.openai], name).toEqual([]);
      expect(userTexts(after.history), name).toEqual(userTexts(conversation.history));
    }
  });

  it('FR-LC-003: should make references whose entry index points at an earlier entry of the same history', () => {
    let references = 0;
    for (const { name } of conversations) {
      for (const { entryIndex, reference } of listContentReferences(compressed.get(name) as readonly HistoryEntry[])) {
        if (reference === undefined) continue;
        references++;
        expect(reference.originalIndex, name).toBeLessThanOrEqual(entryIndex);
        expect(reference.hash, name).toMatch(/^[0-9a-f]{16}$/);
      }
    }
    expect(references).toBeGreaterThan(100);
  });

  it('should remove at least 15% of the tokens (median) of the long Claude Code sessions', () => {
    // The reference set of spec 000's measurements: main Claude Code sessions over 1 MB.
    const long = conversations.filter(
      (item) =>
        item.format === 'claude-code' &&
        !item.name.includes('/subagents/') &&
        statSync(join(corpusDirectory, item.name)).size > 1_000_000,
    );
    expect(long.length).toBe(5);
    expect(median(long.map((item) => reductions.get(item.name) as number))).toBeGreaterThanOrEqual(0.15);
  });

  it('should remove at least 20% of the tokens (median) of the mini-swe-agent runs', () => {
    const runs = conversations.filter((item) => item.name.includes('/mini-swe-agent/'));
    expect(runs.length).toBe(4);
    expect(median(runs.map((item) => reductions.get(item.name) as number))).toBeGreaterThanOrEqual(0.2);
  });

  it('FR-LC-002: should keep every corpus error result its own block, never only references, its last lines verbatim', () => {
    let rewrittenErrors = 0;
    for (const { name, conversation } of conversations) {
      const history = compressed.get(name) as readonly HistoryEntry[];
      const calls = new Map<string, ToolCallBlock>();
      conversation.history.forEach((entry, entryIndex) => {
        entry.blocks.forEach((block, blockIndex) => {
          if (block.type === 'tool_call') calls.set(block.id, block);
          if (block.type !== 'tool_response' || classifyToolResult(block, calls.get(block.callId)).outcome !== 'error') return;
          const after = history[entryIndex]?.blocks[blockIndex] as ToolResponseBlock;
          expect(after.callId, name).toBe(block.callId);
          if (after === block) return;
          rewrittenErrors++;
          const leaves = listTextLeaves(after.result, { scope: 'text' });
          for (const leaf of leaves) {
            const original = readTextLeaf(block.result, leaf.path) as string;
            if (original === leaf.text) continue;
            const tail = (text: string) => text.split('\n').filter((line) => line.trim() !== '').slice(-5);
            expect(tail(leaf.text), name).toEqual(tail(original));
          }
        });
      });
    }
    expect(rewrittenErrors).toBeGreaterThan(10);
  });

  it('should give the same history whether optimize() runs once or after every new turn', () => {
    // Turn by turn the way the orchestrator runs it: each pass sees the previous passes' output plus new entries.
    const { conversation } = conversations.find((item) => item.name === 'openhands/multi_swe_bench_examples_output.jsonl#2') as CorpusConversation;
    const strategy = createLosslessStrategy();
    const original = conversation.history;
    const config = densityConfig(original);
    const optimize = optimizeWith(strategy);
    let running: HistoryEntry[] = [];
    for (let end = 1; end <= original.length; end++) {
      running = [...running, original[end - 1] as HistoryEntry];
      if (end % 5 !== 0 && end !== original.length) continue;
      const frozen = parseHistory(running);
      running = applyDensityResultToHistory(frozen, optimize(frozen, config), strategy.name);
    }
    const once = parseHistory(original);
    const inOneGo = applyDensityResultToHistory(once, optimize(once, config), strategy.name);
    expect(running).toEqual(inOneGo);
    expect(expandHistory(running)).toEqual(original);
  });

  it('should apply optimize() results that HistoryService accepts and that expand exactly, with the conservative options too', () => {
    const strategies = [
      createLosslessStrategy(),
      createLosslessStrategy({ rewriteToolCallParameters: false, keepErrorResults: true }),
    ];
    for (const strategy of strategies) {
      const optimize = optimizeWith(strategy);
      for (const { name, conversation } of conversations) {
        const history = parseHistory(conversation.history);
        const applied = applyDensityResultToHistory(history, optimize(history, densityConfig(history)), strategy.name);
        expect(expandHistory(applied), name).toEqual(conversation.history);
        const problems = findNewValidityProblems(
          checkProviderValidity(conversation),
          checkProviderValidity({ ...conversation, history: applied }),
        );
        expect([...problems.anthropic, ...problems.openai], name).toEqual([]);
      }
    }
  });
});
