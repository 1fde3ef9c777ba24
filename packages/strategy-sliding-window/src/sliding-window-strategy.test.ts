import { MockSummarizer, createSyntheticHistory } from '@ctx/conformance';
import {
  InvalidStrategySettingsError,
  findToolPairingProblems,
  getEntryGenerator,
  getHistoryTokenTarget,
  parseHistory,
  type AppliedCompressionResult,
  type CompressionResult,
  type CompressionStrategyFactory,
  type HistoryEntry,
} from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, listUserTexts } from '@ctx/retention';
import { describe, expect, it } from 'vitest';
import type { SlidingWindowSettings, SlidingWindowSettingsInput } from './sliding-window-settings.js';
import { createSlidingWindowStrategy } from './sliding-window-strategy.js';
import { readSummaryBody } from './summary-entry.js';
import { aiText, call, contextFor, human, result, toolOnlyConversation, wordTokenizer, words } from './test-support/entries.js';

// Compile-time check: the factory fits the contract's factory type, so registries and plugin loaders accept it.
const factory: CompressionStrategyFactory<SlidingWindowSettingsInput, SlidingWindowSettings> = createSlidingWindowStrategy;

function applied(outcome: CompressionResult): AppliedCompressionResult {
  expect(outcome.type).toBe('applied');
  if (outcome.type !== 'applied') throw new Error(`expected an applied result, got ${outcome.reason}: ${outcome.message ?? ''}`);
  return outcome;
}

const summaryText = (entry: HistoryEntry | undefined) => (entry?.blocks[0]?.type === 'text' ? entry.blocks[0].text : '');

/** Spec 002's behaviour: nothing pinned, the summary first. */
const spec = { keepFirstUserMessage: false } as const;

describe('createSlidingWindowStrategy', () => {
  it('should be a threshold strategy registered as sliding-window that needs no LLM by default', () => {
    const strategy = factory();
    expect(strategy.name).toBe('sliding-window');
    expect(strategy.trigger).toEqual({ mode: 'threshold', defaultThreshold: 0.85 });
    expect(strategy.requiresLLM).toBe(false);
    expect(strategy.capabilities).toEqual({ lossless: false, llmSummarization: false, estimatedSpeed: 'fast' });
    expect('optimize' in strategy).toBe(false);
    expect(strategy.settings).toEqual({
      minRecentKeep: 1,
      maxAttempts: 12,
      summary: 'excerpts',
      summaryShare: 0.1,
      excerptLength: 200,
      keepFirstUserMessage: true,
      cutOversizedToolResults: true,
    });
  });

  it('should declare requiresLLM only when the summarizer setting lets it call a model', () => {
    const strategy = createSlidingWindowStrategy({ summary: 'summarizer' });
    expect(strategy.requiresLLM).toBe(true);
    expect(strategy.capabilities).toMatchObject({ llmSummarization: true, estimatedSpeed: 'slow' });
  });

  it('should keep the newest entries that fit and put one marked summary before them', async () => {
    // Twenty 13-token entries (260); window 300 → target 153, of which the summary may take 15.
    const history = Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? human(`q${index} ${words(9)}`) : aiText(`a${index} ${words(9)}`)));
    const context = contextFor(history, { contextLimit: 300 });
    const outcome = applied(await createSlidingWindowStrategy(spec).compress(context));
    const [summary, ...kept] = outcome.newHistory;
    expect(getEntryGenerator(summary as HistoryEntry)).toBe('sliding-window');
    expect(summary?.speaker).toBe('human');
    expect(kept).toEqual(context.history.slice(context.history.length - kept.length));
    // The kept entries are the input's own objects, so their token counts stay cached.
    expect(kept.at(-1)).toBe(context.history.at(-1));
    expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeLessThanOrEqual(getHistoryTokenTarget(context.budget));
    expect(outcome.metadata).toMatchObject({
      originalMessageCount: 20,
      compressedMessageCount: kept.length + 1,
      strategyUsed: 'sliding-window',
      llmCallMade: false,
    });
    expect(outcome.metadata.counts).toMatchObject({ entriesDropped: 20 - kept.length, entriesKept: kept.length });
    expect(outcome.warnings?.[0]).toMatchObject({ type: 'lossy' });
    expect(outcome.warnings?.[0]?.message).toMatch(/dropped the oldest \d+ entries \(\d+ tokens\) and kept the newest \d+ entries/);
  });

  it('spec 002 §6.3: should summarize the dropped part as the first 200 characters of each message when no summarizer is used', async () => {
    const long = 'Please refactor the parser. '.repeat(20);
    const history = [human('first'), aiText(words(300)), human(long), aiText('Sure.'), human('and now?'), aiText('done')];
    const outcome = applied(await createSlidingWindowStrategy({ ...spec, summaryShare: 0.5 }).compress(contextFor(history, { contextLimit: 300 })));
    expect(outcome.metadata.counts?.entriesDropped).toBe(3);
    const text = summaryText(outcome.newHistory[0]);
    expect(text.startsWith('[Previous conversation summary]\n')).toBe(true);
    expect(text.endsWith('\n[End of summary — conversation continues below]')).toBe(true);
    expect(text).toContain(`\nuser: ${long.slice(0, 200)}...\n`);
    // The older excerpts did not fit the summary's share of the target; they are counted instead.
    expect(text).toContain('[2 earlier messages omitted]');
  });

  it('spec 002 all-tool: a pure-tool conversation should still compact, split between complete pairs', async () => {
    const history = toolOnlyConversation(20, () => words(30));
    const context = contextFor(history, { contextLimit: 400 });
    const outcome = applied(await createSlidingWindowStrategy({ summaryShare: 0.5 }).compress(context));
    const kept = outcome.newHistory.slice(1);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(history.length);
    expect(kept.length % 2).toBe(0);
    expect(kept[0]?.speaker).toBe('ai');
    expect(findToolPairingProblems(outcome.newHistory)).toEqual([]);
    expect(summaryText(outcome.newHistory[0])).toMatch(/\nassistant: \[called Read tool_\d+\]\ntool: \[Read returned: w w w/);
    expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeLessThanOrEqual(getHistoryTokenTarget(context.budget));
  });

  it('spec 002 all-tool: should hit the floor, warn and still compact when recentKeep covers a pure-tool conversation', async () => {
    const history = toolOnlyConversation(4, () => words(40));
    const context = contextFor(history, { contextLimit: 200 }); // target 102, history 188
    const outcome = applied(await createSlidingWindowStrategy({ recentKeep: 50 }).compress(context));
    const kept = outcome.newHistory.slice(1);
    expect(kept.length).toBeLessThan(history.length);
    expect(kept[0]?.speaker).toBe('ai');
    expect(findToolPairingProblems(outcome.newHistory)).toEqual([]);
    expect(outcome.warnings?.map((warning) => warning.type)).toContain('floor-hit');
    expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeLessThanOrEqual(getHistoryTokenTarget(context.budget));
  });

  it('spec 002 all-tool: should hand only complete call/result pairs to the summarizer', async () => {
    const history = toolOnlyConversation(12, () => words(30));
    const summarizer = new MockSummarizer('Read twelve files.');
    const context = contextFor(history, { contextLimit: 400, summarizer });
    const outcome = applied(await createSlidingWindowStrategy({ summary: 'summarizer' }).compress(context));
    const dropped = summarizer.calls[0]?.entries ?? [];
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.length % 2).toBe(0);
    expect(findToolPairingProblems(dropped)).toEqual([]);
    expect(findToolPairingProblems(outcome.newHistory)).toEqual([]);
    expect(outcome.newHistory.length - 1 + dropped.length).toBe(history.length);
  });

  it('spec 002 Proposal 1: should cut a mixed conversation at a text boundary, never between a call and its result', async () => {
    const history = [
      human(words(40)),
      aiText('let me check'),
      call('search'),
      result('search', words(40)),
      aiText(words(20)),
      human('thanks'),
      aiText('you are welcome'),
    ];
    for (const contextLimit of [60, 80, 100, 120, 150, 200]) {
      const outcome = await createSlidingWindowStrategy().compress(contextFor(history, { contextLimit }));
      if (outcome.type !== 'applied') continue;
      expect(findToolPairingProblems(outcome.newHistory), `window ${contextLimit}`).toEqual([]);
      const firstKept = outcome.newHistory[1];
      expect(firstKept?.speaker === 'human' || !firstKept?.blocks.some((block) => block.type === 'tool_call'), `window ${contextLimit}`).toBe(true);
    }
  });

  it('spec 002 Proposal 2: should retry with a smaller window until the result fits', async () => {
    const history = Array.from({ length: 32 }, (_, index) => (index % 2 === 0 ? human(words(10)) : aiText(words(10))));
    const context = contextFor(history, { contextLimit: 200 }); // target 102
    const outcome = applied(await createSlidingWindowStrategy({ recentKeep: 24 }).compress(context));
    expect(outcome.metadata.counts?.attempts).toBeGreaterThan(1);
    expect(outcome.metadata.counts?.recentKeep).toBeLessThan(24);
    expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeLessThanOrEqual(102);
    expect(outcome.warnings?.map((warning) => warning.type)).toEqual(['lossy']);
  });

  it('spec 002 Proposal 4: should count tool calls and results when sizing the window', async () => {
    // The newest two results are large: a text-only count would keep them and overflow the target.
    const history = [
      human('start'),
      ...toolOnlyConversation(6, (index) => (index >= 4 ? words(300) : 'small')),
      human('done?'),
    ];
    const context = contextFor(history, { contextLimit: 900 }); // target 459
    const outcome = applied(await createSlidingWindowStrategy().compress(context));
    expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeLessThanOrEqual(459);
    expect(outcome.newHistory.some((entry) => entry.blocks.some((block) => block.type === 'tool_response' && block.callId === 'tool_4'))).toBe(false);
  });

  it('spec 002 floor: should compact at least the oldest entry and warn floor-hit when the window covers the history', async () => {
    const history = [human(words(50)), aiText(words(50))];
    const outcome = applied(await createSlidingWindowStrategy(spec).compress(contextFor(history, { contextLimit: 100 })));
    expect(outcome.newHistory).toHaveLength(2);
    expect(outcome.newHistory[1]).toEqual(parseHistory(history)[1]);
    expect(outcome.warnings?.map((warning) => warning.type)).toEqual(['lossy', 'floor-hit', 'target-not-met']);
    expect(outcome.warnings?.[1]?.message).toMatch(/covered the whole history; at least the oldest entry is compacted/);
  });

  it('should say target-not-met when the newest call/result pair alone is over the target', async () => {
    const history = [human(words(100)), call('a'), result('a', words(500))];
    const outcome = applied(await createSlidingWindowStrategy().compress(contextFor(history, { contextLimit: 400 })));
    expect(outcome.newHistory.slice(1).map((entry) => entry.speaker)).toEqual(['ai', 'tool']);
    const notMet = outcome.warnings?.find((warning) => warning.type === 'target-not-met');
    expect(notMet?.message).toMatch(/over the target of 204.*cannot be split further without separating a tool call from its result/);
  });

  it('should keep user-typed text of kept entries verbatim and never start with a tool result', async () => {
    const history = createSyntheticHistory({ entries: 120, seed: 5 });
    const context = contextFor(history, { contextLimit: 2_000, tokenizer: wordTokenizer() });
    const outcome = applied(await createSlidingWindowStrategy().compress(context));
    expect(outcome.newHistory[0]?.speaker).toBe('human');
    const summaryAt = outcome.newHistory.findIndex((entry) => getEntryGenerator(entry) === 'sliding-window');
    expect(outcome.newHistory[summaryAt + 1]?.speaker).not.toBe('tool');
    for (const entry of outcome.newHistory.filter((_, index) => index !== summaryAt)) expect(context.history).toContain(entry);
  });

  it('should fold an earlier summary into the next one on a second pass', async () => {
    const history = Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? human(`question ${index}`) : aiText(`answer ${index} ${words(20)}`)));
    const strategy = createSlidingWindowStrategy({ ...spec, summaryShare: 0.6 });
    const first = applied(await strategy.compress(contextFor(history, { contextLimit: 400 })));
    const grown = [...first.newHistory, ...Array.from({ length: 10 }, (_, index) => human(`later ${index} ${words(20)}`))];
    const second = applied(await strategy.compress(contextFor(grown, { contextLimit: 400 })));
    const omittedIn = (entry: HistoryEntry | undefined) =>
      Number(/\[(\d+) earlier messages? omitted\]/.exec(readSummaryBody(entry as HistoryEntry) ?? '')?.[1] ?? 0);
    expect(omittedIn(first.newHistory[0])).toBeGreaterThan(0);
    expect(omittedIn(second.newHistory[0])).toBeGreaterThanOrEqual(omittedIn(first.newHistory[0]));
    expect(readSummaryBody(second.newHistory[0] as HistoryEntry)).not.toContain('[Previous conversation summary]');
    expect(second.newHistory.filter((entry) => getEntryGenerator(entry) === 'sliding-window')).toHaveLength(1);
  });

  describe('keepFirstUserMessage', () => {
    // An agent run: the task statement, then a pure tool loop that outgrows the window.
    const task = human(`Fix the failing date parser test in src/date.ts ${words(10)}`);
    const agentRun = [task, ...toolOnlyConversation(12, () => words(30))];
    const notKept = /the first user message \(entry \d+\) was not kept/;

    it('should pin the first user message before the summary when the window would drop it, counting its tokens', async () => {
      const context = contextFor(agentRun, { contextLimit: 400 });
      const outcome = applied(await createSlidingWindowStrategy().compress(context));
      const [pinned, summary, ...kept] = outcome.newHistory;
      // The input's own object, first, so the history still starts with the user.
      expect(pinned).toBe(context.history[0]);
      expect(getEntryGenerator(summary as HistoryEntry)).toBe('sliding-window');
      expect(kept.length).toBeGreaterThan(0);
      kept.forEach((entry, index) => expect(entry).toBe(context.history[context.history.length - kept.length + index]));
      expect(summaryText(summary)).not.toContain('user: Fix the failing date parser test');
      expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeLessThanOrEqual(getHistoryTokenTarget(context.budget));
      expect(outcome.metadata.counts).toMatchObject({
        entriesPinned: 1,
        entriesKept: kept.length + 1,
        entriesDropped: agentRun.length - kept.length - 1,
      });
      expect(outcome.warnings?.[0]?.message).toMatch(/and kept the first user message \(entry 0\) and the newest \d+ entries/);
      expect(outcome.warnings?.some((warning) => notKept.test(warning.message))).toBe(false);
      expect(findNewValidityProblems(checkProviderValidity({ history: context.history }), checkProviderValidity({ history: outcome.newHistory }))).toEqual({
        anthropic: [],
        openai: [],
      });
    });

    it('should pin the first entry the user typed, not a demonstration, a harness wrapper or a generated entry before it', async () => {
      const demonstration: HistoryEntry = {
        speaker: 'human',
        blocks: [{ type: 'text', text: 'Here is a demonstration of how to solve a task.' }],
        metadata: { providerMetadata: { trajectory: { native: { is_demo: true } } } },
      };
      const history = [demonstration, human('<command-name>/clear</command-name>'), human('<system-reminder>be brief</system-reminder>'), ...agentRun];
      const context = contextFor(history, { contextLimit: 400 });
      const outcome = applied(await createSlidingWindowStrategy().compress(context));
      expect(outcome.newHistory[0]).toBe(context.history[3]);
      expect(listUserTexts(context.history)[0]?.entryIndex).toBe(3);
      expect(outcome.newHistory.filter((entry) => entry.speaker === 'human' && getEntryGenerator(entry) === undefined)).toHaveLength(1);
    });

    it('should not pin, and say so, when the first user message alone does not fit the target beside the summary', async () => {
      const huge = human(words(200)); // 203 tokens; the target is 153, of which the summary may take 15
      const history = [huge, ...toolOnlyConversation(4, () => words(10))];
      const outcome = applied(await createSlidingWindowStrategy().compress(contextFor(history, { contextLimit: 300 })));
      expect(getEntryGenerator(outcome.newHistory[0] as HistoryEntry)).toBe('sliding-window');
      // Summarized with the rest, as with the setting off.
      const shortExcerpts = applied(await createSlidingWindowStrategy({ excerptLength: 20, summaryShare: 0.5 }).compress(contextFor(history, { contextLimit: 300 })));
      expect(summaryText(shortExcerpts.newHistory[0])).toMatch(/\nuser: (w ){5,}/);
      expect(outcome.newHistory.some((entry) => entry.speaker === 'human' && getEntryGenerator(entry) === undefined)).toBe(false);
      expect(outcome.metadata.counts?.entriesPinned).toBe(0);
      expect(outcome.warnings?.find((warning) => notKept.test(warning.message))).toEqual({
        type: 'fallback',
        message:
          'the first user message (entry 0) was not kept: it alone takes 203 tokens, more than the target of 153 minus the 15 kept for the summary; it is summarized with the dropped entries',
      });
    });

    it('should not pin when with it no window fits the target while without it one does, or nothing else could be compacted', async () => {
      // 103 tokens fit beside the summary, but not together with the newest call/result pair (~70 tokens).
      const history = [human(words(100)), call('a'), result('a', words(30)), call('b'), result('b', words(60))];
      const context = contextFor(history, { contextLimit: 300 });
      const outcome = applied(await createSlidingWindowStrategy().compress(context));
      expect(outcome.newHistory).not.toContainEqual(context.history[0]);
      expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeLessThanOrEqual(getHistoryTokenTarget(context.budget));
      expect(outcome.warnings?.find((warning) => notKept.test(warning.message))?.message).toMatch(
        /with its 103 tokens no pair-safe window fits the target of 153; without them one does/,
      );

      // 43 tokens fit beside the summary (target 51, summary 5), but dropping only the task's place compacts nothing.
      const onlyTheTask = applied(await createSlidingWindowStrategy().compress(contextFor([human(words(40)), aiText(words(60))], { contextLimit: 100 })));
      expect(onlyTheTask.newHistory.slice(1)).toEqual(parseHistory([aiText(words(60))]));
      expect(onlyTheTask.warnings?.find((warning) => notKept.test(warning.message))?.message).toMatch(/no pair-safe split would compact any other entry/);
    });

    it('should keep the pinned message exactly once and carry the summary forward on a second pass', async () => {
      const strategy = createSlidingWindowStrategy({ summaryShare: 0.4 });
      const first = applied(await strategy.compress(contextFor(agentRun, { contextLimit: 400 })));
      const later = Array.from({ length: 14 }, (_, index) => [call(`later_${index}`), result(`later_${index}`, words(30))]).flat();
      const grown = [...first.newHistory, ...later];
      const context = contextFor(grown, { contextLimit: 400 });
      const second = applied(await strategy.compress(context));
      expect(second.newHistory[0]).toBe(context.history[0]);
      expect(second.newHistory[0]).toEqual(parseHistory([task])[0]);
      expect(second.newHistory.filter((entry) => JSON.stringify(entry) === JSON.stringify(second.newHistory[0]))).toHaveLength(1);
      expect(second.newHistory.filter((entry) => getEntryGenerator(entry) === 'sliding-window')).toHaveLength(1);
      expect(getEntryGenerator(second.newHistory[1] as HistoryEntry)).toBe('sliding-window');
      // The first summary is folded in (its excerpts or their count), not cut to an excerpt of itself.
      const body = readSummaryBody(second.newHistory[1] as HistoryEntry) ?? '';
      expect(body).not.toContain('[Previous conversation summary]');
      // Every message the first summary described (as a line or in its omitted count) is still accounted for,
      // plus one per entry this pass dropped.
      const described = (text: string) =>
        Number(/\[(\d+) earlier messages? omitted\]/.exec(text)?.[1] ?? 0) + text.split('\n').filter((line) => /^(user|assistant|tool): /.test(line)).length;
      const firstBody = readSummaryBody(first.newHistory[1] as HistoryEntry) ?? '';
      expect(described(firstBody)).toBe(first.metadata.counts?.entriesDropped);
      expect(described(body)).toBe(described(firstBody) + (second.metadata.counts?.entriesDropped ?? 0) - 1);
      expect(second.metadata.counts?.entriesPinned).toBe(1);
    });

    it('false: should keep spec 002 behaviour, the summary first and the task only as an excerpt', async () => {
      const context = contextFor(agentRun, { contextLimit: 800 });
      const outcome = applied(await createSlidingWindowStrategy({ keepFirstUserMessage: false, summaryShare: 0.9, excerptLength: 20 }).compress(context));
      const [summary, ...kept] = outcome.newHistory;
      expect(getEntryGenerator(summary as HistoryEntry)).toBe('sliding-window');
      expect(kept).not.toContain(context.history[0]);
      kept.forEach((entry, index) => expect(entry).toBe(context.history[context.history.length - kept.length + index]));
      expect(summaryText(summary)).toContain('\nuser: Fix the failing date...\n');
      expect(outcome.metadata.counts).toMatchObject({ entriesPinned: 0, entriesDropped: agentRun.length - kept.length });
      expect(outcome.warnings?.some((warning) => notKept.test(warning.message))).toBe(false);
    });
  });

  describe('with summary: summarizer', () => {
    const history = Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? human(`q${index} ${words(9)}`) : aiText(`a${index} ${words(9)}`)));
    // Room for excerpts, so a fallback shows in the summary text.
    const excerptFallback = createSlidingWindowStrategy({ ...spec, summary: 'summarizer', summaryShare: 0.5 });
    const excerptLine = /\n(user: q|assistant: a)\d+ w w w w w w w w w\n/;

    it('should hand exactly the dropped entries to the summarizer and use its text', async () => {
      const summarizer = new MockSummarizer('The user asked twenty questions; all were answered.');
      const context = contextFor(history, { contextLimit: 300, summarizer, activeTodos: [{ content: 'Answer them', status: 'in_progress' }] });
      const outcome = applied(await createSlidingWindowStrategy({ summary: 'summarizer' }).compress(context));
      expect(summarizer.calls).toHaveLength(1);
      const request = summarizer.calls[0];
      const dropped = outcome.metadata.counts?.entriesDropped ?? 0;
      // The first user message is pinned (kept before the summary), so the summarizer gets the entries after it.
      expect(outcome.newHistory[0]).toBe(context.history[0]);
      expect(request?.entries).toEqual(context.history.slice(1, 1 + dropped));
      expect(request?.maxOutputTokens).toBe(Math.floor(getHistoryTokenTarget(context.budget) * 0.1));
      expect(request?.instructions).toMatch(/- \[in_progress\] Answer them/);
      expect(summaryText(outcome.newHistory[1])).toBe(
        '[Previous conversation summary]\nThe user asked twenty questions; all were answered.\n[End of summary — conversation continues below]',
      );
      expect(getEntryGenerator(outcome.newHistory[1] as HistoryEntry)).toBe('sliding-window');
      expect(outcome.metadata.llmCallMade).toBe(true);
      expect(outcome.warnings?.[0]?.message).toMatch(/the summarizer "mock-summarizer" summarized \d+ entries/);
    });

    it('spec 002 §6.3: should fall back to the excerpt summary when the summarizer fails or returns nothing', async () => {
      const failing = new MockSummarizer(() => {
        throw new Error('rate limited');
      });
      const outcome = applied(await excerptFallback.compress(contextFor(history, { contextLimit: 300, summarizer: failing })));
      expect(failing.calls).toHaveLength(1);
      expect(summaryText(outcome.newHistory[0])).toMatch(excerptLine);
      expect(outcome.metadata.llmCallMade).toBe(true);
      expect(outcome.warnings?.find((warning) => warning.type === 'fallback')?.message).toMatch(/failed: rate limited; the dropped entries are summarized as excerpts/);

      const empty = applied(await excerptFallback.compress(contextFor(history, { contextLimit: 300, summarizer: new MockSummarizer('  ') })));
      expect(summaryText(empty.newHistory[0])).toMatch(excerptLine);
      expect(empty.warnings?.find((warning) => warning.type === 'fallback')?.message).toMatch(/returned an empty summary/);
    });

    it('should fall back to the excerpt summary, without a model call, when no summarizer is given', async () => {
      const outcome = applied(await excerptFallback.compress(contextFor(history, { contextLimit: 300 })));
      expect(outcome.metadata.llmCallMade).toBe(false);
      expect(summaryText(outcome.newHistory[0])).toMatch(excerptLine);
      expect(outcome.warnings?.find((warning) => warning.type === 'fallback')?.message).toMatch(/no summarizer was given/);
    });

    it('should use the excerpts when the model summary would not save tokens', async () => {
      const verbose = new MockSummarizer(words(5_000));
      const outcome = applied(await excerptFallback.compress(contextFor(history, { contextLimit: 300, summarizer: verbose })));
      expect(summaryText(outcome.newHistory[0])).toMatch(excerptLine);
      expect(outcome.warnings?.find((warning) => warning.type === 'fallback')?.message).toMatch(/would not have saved tokens/);
    });

    it('should trim the summarizer input to 80% of the window, oldest entries first (spec 002 §6.2)', async () => {
      const big = [human(words(500)), aiText(words(500)), ...history];
      const summarizer = new MockSummarizer('summary');
      const context = contextFor(big, { contextLimit: 400, summarizer });
      const outcome = applied(await createSlidingWindowStrategy({ summary: 'summarizer' }).compress(context));
      const entries = summarizer.calls[0]?.entries ?? [];
      expect(context.tokenCounter.countEntries(entries)).toBeLessThanOrEqual(320);
      expect(entries.at(-1)).toBe(context.history[(outcome.metadata.counts?.entriesDropped ?? 0) - 1]);
      expect(entries).not.toContain(context.history[0]);
    });

    it('should return aborted when the signal aborts while summarizing', async () => {
      const controller = new AbortController();
      const summarizer = new MockSummarizer(() => {
        controller.abort();
        throw new Error('aborted');
      });
      const outcome = await createSlidingWindowStrategy({ summary: 'summarizer' }).compress(
        contextFor(history, { contextLimit: 300, summarizer, signal: controller.signal }),
      );
      expect(outcome).toMatchObject({ type: 'no-op', reason: 'aborted' });
    });

    it('should return aborted when the signal aborts while a summarizer that ignores it still answers', async () => {
      const controller = new AbortController();
      const summarizer = new MockSummarizer(() => {
        controller.abort();
        return 'late summary';
      });
      const outcome = await createSlidingWindowStrategy({ summary: 'summarizer' }).compress(
        contextFor(history, { contextLimit: 300, summarizer, signal: controller.signal }),
      );
      expect(summarizer.calls).toHaveLength(1);
      expect(outcome).toMatchObject({ type: 'no-op', reason: 'aborted' });
    });
  });

  it('should never call a summarizer it is given when summary is excerpts (requiresLLM: false)', async () => {
    const summarizer = new MockSummarizer();
    const history = Array.from({ length: 20 }, () => human(words(10)));
    applied(await createSlidingWindowStrategy().compress(contextFor(history, { contextLimit: 100, summarizer })));
    expect(summarizer.calls).toHaveLength(0);
  });

  it('EC-001: should return a no-op with reason empty-history for an empty history', async () => {
    expect(await createSlidingWindowStrategy().compress(contextFor([], { contextLimit: 100 }))).toEqual({ type: 'no-op', reason: 'empty-history' });
  });

  it('should return already-under-target when the history fits', async () => {
    const outcome = await createSlidingWindowStrategy().compress(contextFor([human('hi'), aiText('hello')], { contextLimit: 1_000 }));
    expect(outcome).toMatchObject({ type: 'no-op', reason: 'already-under-target', message: 'the history has 8 tokens; the target is 510' });
  });

  it('should return too-few-compressible when no pair-safe split exists or dropping would not save tokens', async () => {
    const single = await createSlidingWindowStrategy({ cutOversizedToolResults: false }).compress(
      contextFor([call('a'), result('a', words(300))], { contextLimit: 100 }),
    );
    expect(single).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
    expect(single.type === 'no-op' && single.message).toMatch(/no split between complete tool call\/result pairs/);
    // Dropping a 4-token entry costs a longer summary.
    const tiny = await createSlidingWindowStrategy().compress(contextFor([human('hi'), aiText(words(100))], { contextLimit: 100 }));
    expect(tiny).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
    expect(tiny.type === 'no-op' && tiny.message).toMatch(/would not save tokens/);
  });

  describe('a newest tool output larger than the window (issue 13)', () => {
    const logLines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index} ok`).join('\n');
    const giant = (id: string) => ({ ...result(id, ''), blocks: [{ type: 'tool_response' as const, callId: id, toolName: 'Bash', result: logLines(5_000) }] });

    it('should cut it to its beginning and end in the kept window, so the target is met', async () => {
      const context = contextFor([human(words(50)), aiText(words(50)), human('and the log?'), call('log'), giant('log')], { contextLimit: 2_000 });
      const outcome = await createSlidingWindowStrategy().compress(context);
      if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}`);
      expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeLessThanOrEqual(1_020);
      expect(outcome.warnings?.map((warning) => warning.type)).not.toContain('target-not-met');
      expect(outcome.metadata.counts).toMatchObject({ toolResultsCut: 1 });
      const block = outcome.newHistory.at(-1)?.blocks[0];
      const kept = block?.type === 'tool_response' && typeof block.result === 'string' ? block.result : '';
      expect(kept.startsWith('line 0 ok')).toBe(true);
      expect(kept.endsWith('line 4999 ok')).toBe(true);
    });

    it('should cut it in place when no pair-safe split exists', async () => {
      const context = contextFor([call('log'), giant('log')], { contextLimit: 2_000 });
      const outcome = await createSlidingWindowStrategy().compress(context);
      if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}`);
      expect(outcome.newHistory).toHaveLength(2);
      expect(outcome.newHistory[0]).toBe(context.history[0]);
      expect(outcome.metadata.counts).toEqual({ entriesDropped: 0, toolResultsCut: 1 });
      expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeLessThanOrEqual(1_020);
    });
  });

  it('should return aborted without doing anything when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const history = Array.from({ length: 20 }, () => human(words(10)));
    expect(await createSlidingWindowStrategy().compress(contextFor(history, { contextLimit: 100, signal: controller.signal }))).toEqual({
      type: 'no-op',
      reason: 'aborted',
    });
  });

  it('should estimate its reduction without compressing', async () => {
    const history = Array.from({ length: 20 }, () => human(words(10)));
    const strategy = createSlidingWindowStrategy();
    const context = contextFor(history, { contextLimit: 100 });
    const estimate = await strategy.estimateReduction?.(context);
    const outcome = applied(await strategy.compress(context));
    expect(estimate).toEqual({ tokensBefore: 260, estimatedTokensAfter: context.tokenCounter.countEntries(outcome.newHistory) });
    expect(await strategy.estimateReduction?.(contextFor(history, { contextLimit: 10_000 }))).toEqual({ tokensBefore: 260, estimatedTokensAfter: 260 });
  });

  it('should count each entry about once, so its cost is linear in the history length', async () => {
    for (const entries of [150, 600]) {
      const tokenizer = wordTokenizer();
      const history = createSyntheticHistory({ entries, seed: 3 });
      await createSlidingWindowStrategy().compress(contextFor(history, { contextLimit: 1_000, tokenizer }));
      const texts = history.reduce((sum, entry) => sum + entry.blocks.length, 0);
      // Per block: name and payload once; per dropped entry: its excerpt line once; plus one count per attempt.
      expect(tokenizer.calls.length).toBeLessThanOrEqual(texts * 2 + entries + 20);
    }
  });

  it('should reject invalid settings with a line naming the option', () => {
    expect(() => createSlidingWindowStrategy({ recentKeep: 0 })).toThrow(InvalidStrategySettingsError);
    expect(() => createSlidingWindowStrategy({ recentKeep: 0 })).toThrow(/recentKeep: Expected an integer ≥ 1/);
    expect(() => createSlidingWindowStrategy({ recentKeep: 2, minRecentKeep: 3 })).toThrow(/recentKeep: Expected `recentKeep` to be ≥ `minRecentKeep`/);
    expect(() => createSlidingWindowStrategy({ summary: 'llm' } as never)).toThrow(/summary: /);
    expect(() => createSlidingWindowStrategy({ summaryShare: 0 })).toThrow(/summaryShare: Expected a fraction > 0/);
    expect(() => createSlidingWindowStrategy({ keep: 3 } as never)).toThrow(/Unrecognized key/);
  });
});
