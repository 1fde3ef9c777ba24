import { createCharacterTokenizer } from '@ctx/conformance';
import {
  createCompressionBudget,
  createTokenCounter,
  findNewToolPairingProblems,
  findToolPairingProblems,
  getEntryGenerator,
  getHistoryTokenTarget,
  parseHistory,
  type Conversation,
  type HistoryEntry,
} from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, listUserTexts, measureRetention } from '@ctx/retention';
import { isSafeCutIndex } from '@ctx/strategy-utils';
import { corpusExists, loadCorpusConversations } from '@ctx/test-corpus';
import { describe, expect, it } from 'vitest';
import { createSlidingWindowStrategy } from './sliding-window-strategy.js';
import { expectSameOrCut } from './test-support/kept-entries.js';

if (!corpusExists) console.warn('Skipping the sliding-window corpus tests: corpus not found (set CTX_CORPUS).');

const conversations = corpusExists ? loadCorpusConversations() : [];

describe.skipIf(!corpusExists)('createSlidingWindowStrategy on the recorded corpus', () => {
  it('should compact every conversation pair-safely, provider-validly, keeping the newest entry and fitting the target or saying why', async () => {
    const strategy = createSlidingWindowStrategy();
    let applied = 0;
    for (const { name, conversation } of conversations) {
      const tokenCounter = createTokenCounter(createCharacterTokenizer());
      const history = conversation.history;
      const overheadTokens = tokenCounter.countOverhead(conversation.system, conversation.tools);
      const total = tokenCounter.countEntries(history) + overheadTokens;
      // The window `ctx compare` uses by default (the conversation's own size), and a much smaller one.
      for (const contextLimit of [total, Math.round(total / 4)]) {
        const budget = createCompressionBudget({ contextLimit, threshold: 0.85, overheadTokens });
        const outcome = await strategy.compress({
          history,
          system: conversation.system ?? [],
          tools: conversation.tools ?? [],
          tokenCounter,
          budget,
        });
        const label = `${name} (window ${contextLimit})`;
        if (outcome.type === 'no-op') {
          // Only a history whose newest call/result pair cannot be split may refuse.
          expect(outcome.reason, label).toBe('too-few-compressible');
          continue;
        }
        applied += 1;
        if (outcome.metadata.counts?.entriesDropped === 0) {
          // No pair-safe split, but oversized tool results were cut in place.
          outcome.newHistory.forEach((entry, index) => expectSameOrCut(entry, history[index], label));
          continue;
        }
        // keepFirstUserMessage: the first user message, pinned before the summary when the window dropped it.
        const summaryAt = outcome.newHistory.findIndex((entry) => getEntryGenerator(entry) === 'sliding-window');
        expect(summaryAt, label).toBe(outcome.metadata.counts?.entriesPinned);
        if (summaryAt === 1) expect(outcome.newHistory[0], label).toBe(history[listUserTexts(history)[0]?.entryIndex ?? -1]);
        const kept = outcome.newHistory.slice(summaryAt + 1);
        kept.forEach((entry, index) => expectSameOrCut(entry, history[history.length - kept.length + index], label));
        expectSameOrCut(kept.at(-1), history.at(-1), label);
        expect(isSafeCutIndex(history, history.length - kept.length), label).toBe(true);
        expect(findNewToolPairingProblems(history, outcome.newHistory), label).toEqual([]);
        const after: Conversation = { ...conversation, history: outcome.newHistory };
        expect(findNewValidityProblems(checkProviderValidity(conversation), checkProviderValidity(after)), label).toEqual({
          anthropic: [],
          openai: [],
        });
        const tokensAfter = tokenCounter.countEntries(outcome.newHistory);
        const notMet = outcome.warnings?.some((warning) => warning.type === 'target-not-met') === true;
        expect(notMet, label).toBe(tokensAfter > getHistoryTokenTarget(budget));
      }
    }
    // Every conversation of the corpus compacts at its own window (27), and most at a quarter of it.
    expect(applied).toBeGreaterThanOrEqual(conversations.length + Math.floor(conversations.length / 2));
  });

  it('keepFirstUserMessage: should keep the task statement of every agent run (user texts kept > 0) at the window ctx compare uses', async () => {
    const agentRuns = conversations.filter(
      ({ name, conversation }) =>
        /^(swe-agent|openhands|openai-chat)\//.test(name) || (name.startsWith('claude-code/') && conversation.history.length >= 200),
    );
    expect(agentRuns.length).toBeGreaterThanOrEqual(15);
    for (const { name, conversation } of agentRuns) {
      const tokenCounter = createTokenCounter(createCharacterTokenizer());
      const overheadTokens = tokenCounter.countOverhead(conversation.system, conversation.tools);
      const contextLimit = tokenCounter.countEntries(conversation.history) + overheadTokens;
      const budget = createCompressionBudget({ contextLimit, threshold: 0.85, overheadTokens });
      const context = { history: conversation.history, system: conversation.system ?? [], tools: conversation.tools ?? [], tokenCounter, budget };
      const outcome = await createSlidingWindowStrategy().compress(context);
      expect(outcome.type, name).toBe('applied');
      if (outcome.type !== 'applied') continue;
      const task = listUserTexts(conversation.history)[0];
      expect(task, name).toBeDefined();
      expect(listUserTexts(outcome.newHistory).map((userText) => userText.text), name).toContain(task?.text);
      const report = measureRetention(conversation, { ...conversation, history: outcome.newHistory });
      expect(report.userTexts.kept, name).toBeGreaterThan(0);
      // With the setting off, spec 002's window drops the task on these runs.
      const spec = await createSlidingWindowStrategy({ keepFirstUserMessage: false }).compress(context);
      if (spec.type === 'applied' && outcome.metadata.counts?.entriesPinned === 1) {
        expect(spec.newHistory, name).not.toContain(conversation.history[task?.entryIndex ?? -1]);
      }
    }
  });

  it('spec 002 all-tool: should fit the target on the pure tool loops of SWE-agent, mini-swe-agent and OpenHands', async () => {
    const toolLoops = conversations.filter(({ name }) => /^(swe-agent|openhands|openai-chat)\//.test(name));
    expect(toolLoops.length).toBeGreaterThanOrEqual(8);
    for (const { name, conversation } of toolLoops) {
      const tokenCounter = createTokenCounter(createCharacterTokenizer());
      const total = tokenCounter.countEntries(conversation.history);
      const budget = createCompressionBudget({ contextLimit: total, threshold: 0.85 });
      const outcome = await createSlidingWindowStrategy().compress({ history: conversation.history, system: [], tools: [], tokenCounter, budget });
      expect(outcome.type, name).toBe('applied');
      if (outcome.type !== 'applied') continue;
      const newestTurnAlone = tokenCounter.countEntries(conversation.history.slice(-2));
      // psf__requests-1142 ends with one 200k-token observation: nothing pair-safe can fit it.
      if (newestTurnAlone < getHistoryTokenTarget(budget) / 2) {
        expect(tokenCounter.countEntries(outcome.newHistory), name).toBeLessThanOrEqual(getHistoryTokenTarget(budget));
      }
    }
  });

  it('should keep a long Claude Code session inside its window turn after turn, with one summary that carries the old ones', async () => {
    const session = conversations.find(({ name }) => name === 'claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl');
    expect(session).toBeDefined();
    const source = session?.conversation.history ?? [];
    const firstUser = source[listUserTexts(source)[0]?.entryIndex ?? -1];
    expect(firstUser).toBeDefined();
    const tokenCounter = createTokenCounter(createCharacterTokenizer());
    const contextLimit = 30_000;
    const strategy = createSlidingWindowStrategy();
    let history: readonly HistoryEntry[] = [];
    let compactions = 0;
    for (const [index, entry] of source.entries()) {
      history = [...history, entry];
      // An agent sends (and compresses) only at turn boundaries: never between a call and its results.
      if (source[index + 1]?.speaker === 'tool') continue;
      const tokens = tokenCounter.countEntries(history);
      if (tokens <= 0.85 * contextLimit) continue;
      const budget = createCompressionBudget({ contextLimit, threshold: 0.85 });
      const outcome = await strategy.compress({ history: parseHistory(history), system: [], tools: [], tokenCounter, budget });
      if (outcome.type !== 'applied') continue;
      compactions += 1;
      history = outcome.newHistory;
      expect(findToolPairingProblems(history)).toEqual([]);
      expect(history.filter((item) => getEntryGenerator(item) === 'sliding-window')).toHaveLength(1);
      // The session's first user message stays pinned, once, before the summary.
      expect(history[0]).toEqual(firstUser);
      expect(history.filter((item) => JSON.stringify(item) === JSON.stringify(firstUser))).toHaveLength(1);
      expect(getEntryGenerator(history[1] as HistoryEntry)).toBe('sliding-window');
      const fits = tokenCounter.countEntries(history) <= getHistoryTokenTarget(budget);
      expect(fits || outcome.warnings?.some((warning) => warning.type === 'target-not-met')).toBe(true);
    }
    expect(compactions).toBeGreaterThanOrEqual(3);
    // The last summary still counts what the first compactions dropped.
    const summary = history[1]?.blocks[0];
    expect(summary?.type === 'text' && /\[\d+ earlier messages omitted\]/.test(summary.text)).toBe(true);
  });
});
