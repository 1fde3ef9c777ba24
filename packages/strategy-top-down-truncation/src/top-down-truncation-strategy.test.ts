import { MockTokenizer, createSyntheticHistory } from '@ctx/conformance';
import {
  InvalidStrategySettingsError,
  createCompressionBudget,
  createTokenCounter,
  findToolPairingProblems,
  getEntryGenerator,
  parseHistory,
  type CompressionContext,
  type CompressionStrategyFactory,
  type HistoryEntry,
} from '@ctx/core';
import { describe, expect, it } from 'vitest';
import type { TopDownTruncationSettings, TopDownTruncationSettingsInput } from './top-down-truncation-settings.js';
import { createTopDownTruncationStrategy } from './top-down-truncation-strategy.js';

// Compile-time check: the factory fits the contract's factory type, so registries and plugin loaders accept it.
const factory: CompressionStrategyFactory<TopDownTruncationSettingsInput, TopDownTruncationSettings> =
  createTopDownTruncationStrategy;

// Spec 000's truncation, which drops from the very start: the rules below that are about the cut itself use it, so
// their fixtures need no task statement in front.
const spec000 = (settings: TopDownTruncationSettingsInput = {}) =>
  createTopDownTruncationStrategy({ keepFirstUserMessage: false, ...settings });

// One token per whitespace-separated word; entries also carry the counter's 3-token overhead.
const wordTokenizer = () => new MockTokenizer((text) => text.split(/\s+/).filter(Boolean).length);

const words = (count: number, word = 'w') => Array.from({ length: count }, () => word).join(' ');
const human = (count: number): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text: words(count) }] });
const ai = (count: number): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'text', text: words(count) }] });
const call = (id: string): HistoryEntry => ({
  speaker: 'ai',
  blocks: [{ type: 'tool_call', id, name: 'Read', parameters: 'x' }],
});
const result = (id: string, count: number): HistoryEntry => ({
  speaker: 'tool',
  blocks: [{ type: 'tool_response', callId: id, toolName: 'Read', result: words(count) }],
});

function contextFor(
  history: readonly HistoryEntry[],
  budget: { contextLimit: number; threshold?: number; overheadTokens?: number },
  tokenizer = wordTokenizer(),
): CompressionContext {
  return {
    history: parseHistory(history),
    system: [],
    tools: [],
    tokenCounter: createTokenCounter(tokenizer),
    budget: createCompressionBudget({ threshold: 0.85, ...budget }),
  };
}

describe('createTopDownTruncationStrategy', () => {
  it('BR-THRESH-002: should be a threshold strategy with default threshold 0.85 that needs no LLM', () => {
    const strategy = factory();
    expect(strategy.name).toBe('top-down-truncation');
    expect(strategy.trigger).toEqual({ mode: 'threshold', defaultThreshold: 0.85 });
    expect(strategy.requiresLLM).toBe(false);
    expect('optimize' in strategy).toBe(false);
    expect(strategy.settings).toEqual({ minEntriesKept: 2, keepFirstUserMessage: true, cutOversizedToolResults: true });
  });

  it('BR-THRESH-004: should drop just enough of the oldest entries to fit threshold × contextLimit × 0.6', async () => {
    // Ten human entries of 13 tokens each (10 words + 3 overhead) = 130 tokens.
    const history = Array.from({ length: 10 }, () => human(10));
    // contextLimit 100 → target floor(0.85 × 100 × 0.6) = 51 tokens → keep 3 entries (39), not 4 (52).
    const outcome = await spec000().compress(contextFor(history, { contextLimit: 100 }));
    expect(outcome.type).toBe('applied');
    if (outcome.type !== 'applied') return;
    expect(outcome.newHistory).toEqual(parseHistory(history.slice(7)));
    expect(outcome.metadata).toMatchObject({ originalMessageCount: 10, compressedMessageCount: 3, llmCallMade: false });
    expect(outcome.metadata.counts).toEqual({ entriesDropped: 7, entriesPinned: 0, tokensDropped: 91, noticesAdded: 0, toolResultsCut: 0 });
  });

  it('should subtract system and tool tokens from the target', async () => {
    const history = Array.from({ length: 10 }, () => human(10));
    // Same window with 13 tokens of overhead: the history may take 51 − 13 = 38 tokens → 2 entries, not 3.
    const outcome = await spec000().compress(
      contextFor(history, { contextLimit: 100, overheadTokens: 13 }),
    );
    expect(outcome.type === 'applied' && outcome.newHistory).toEqual(parseHistory(history.slice(8)));
  });

  it('should start the kept history with a marked notice when the cut falls before an assistant turn', async () => {
    // 13, 13, 43, 13, 13, 13 tokens: cutting before an ai entry costs the 15-token notice too.
    const history = [human(10), ai(10), human(40), ai(10), human(10), ai(10)];
    const outcome = await spec000().compress(contextFor(history, { contextLimit: 80 })); // target 40
    expect(outcome.type).toBe('applied');
    if (outcome.type !== 'applied') return;
    // Before index 3 (ai): 39 + 15 > 40. Before index 4 (human): 26, no notice needed.
    expect(outcome.newHistory).toEqual(parseHistory(history.slice(4)));
    // Target 56: before index 2 (human) keeps 82; before index 3 (ai) keeps 39 + the notice = 54.
    const atAi = await spec000().compress(contextFor(history, { contextLimit: 110 }));
    expect(atAi.type === 'applied' && atAi.newHistory.map((entry) => [entry.speaker, getEntryGenerator(entry)])).toEqual([
      ['human', 'top-down-truncation'],
      ['ai', undefined],
      ['human', undefined],
      ['ai', undefined],
    ]);
    expect(atAi.type === 'applied' && atAi.newHistory[0]?.blocks[0]).toEqual({
      type: 'text',
      text: '[3 earlier conversation entries were removed to fit the context window.]',
    });
  });

  it('should never split a tool call from its response: it moves the cut past the tool entry', async () => {
    // Candidate cuts: 1 (ai), 3 (ai after the tool entry), never 2 (the tool entry).
    const history = [human(5), call('a'), result('a', 40), ai(5), human(5)];
    const outcome = await spec000().compress(contextFor(history, { contextLimit: 70 })); // target 35
    expect(outcome.type).toBe('applied');
    if (outcome.type !== 'applied') return;
    expect(outcome.newHistory.map((entry) => entry.speaker)).toEqual(['human', 'ai', 'human']);
    expect(getEntryGenerator(outcome.newHistory[0] as HistoryEntry)).toBe('top-down-truncation');
    expect(findToolPairingProblems(outcome.newHistory)).toEqual([]);
  });

  it('should never cut between two ai entries of one assistant turn', async () => {
    // Claude Code style: one turn stored as [ai text, ai call b, ai call c], answered by two tool entries.
    const history: HistoryEntry[] = [human(30), ai(2), call('b'), call('c'), result('b', 2), result('c', 2), human(2)];
    for (const contextLimit of [30, 40, 50, 60, 70, 80]) {
      const outcome = await spec000({ minEntriesKept: 1 }).compress(contextFor(history, { contextLimit }));
      if (outcome.type === 'applied') expect(findToolPairingProblems(outcome.newHistory), `window ${contextLimit}`).toEqual([]);
    }
  });

  it('should keep a parallel call batch whole with its answers', async () => {
    const batch: HistoryEntry = {
      speaker: 'ai',
      blocks: ['x', 'y', 'z'].map((id) => ({ type: 'tool_call' as const, id, name: 'Read', parameters: id })),
    };
    const answers: HistoryEntry = {
      speaker: 'tool',
      blocks: ['x', 'y', 'z'].map((id) => ({ type: 'tool_response' as const, callId: id, toolName: 'Read', result: words(5) })),
    };
    const history = [human(30), batch, answers, ai(3), human(3)];
    // Keeping the batch: 9 + 21 + 6 + 6 tokens, plus the 15-token notice = 57 = floor(0.85 × 112 × 0.6).
    const outcome = await spec000().compress(contextFor(history, { contextLimit: 112 }));
    expect(outcome.type).toBe('applied');
    if (outcome.type !== 'applied') return;
    expect(findToolPairingProblems(outcome.newHistory)).toEqual([]);
    expect(outcome.newHistory[1]).toEqual(parseHistory([batch])[0]);
  });

  it('should keep minEntriesKept entries and warn when the target cannot be met', async () => {
    const history = [human(5), ai(5), human(200), ai(200)];
    const outcome = await spec000().compress(contextFor(history, { contextLimit: 100 }));
    expect(outcome.type).toBe('applied');
    if (outcome.type !== 'applied') return;
    expect(outcome.newHistory).toHaveLength(2);
    expect(outcome.warnings?.map((warning) => warning.type)).toEqual(['lossy', 'target-not-met']);
  });

  it('should say what it dropped in a lossy warning', async () => {
    const history = Array.from({ length: 6 }, () => human(10));
    const outcome = await spec000().compress(contextFor(history, { contextLimit: 60 }));
    expect(outcome.type === 'applied' && outcome.warnings?.[0]?.message).toMatch(/dropped the 4 oldest entries \(52 tokens\)/);
  });

  it('EC-001: should return a no-op with reason empty-history for an empty history', async () => {
    const outcome = await createTopDownTruncationStrategy().compress(contextFor([], { contextLimit: 100 }));
    expect(outcome).toEqual({ type: 'no-op', reason: 'empty-history' });
  });

  it('should return already-under-target when the history fits', async () => {
    const outcome = await createTopDownTruncationStrategy().compress(
      contextFor([human(3), ai(3)], { contextLimit: 1_000 }),
    );
    expect(outcome).toMatchObject({ type: 'no-op', reason: 'already-under-target' });
  });

  it('should return too-few-compressible when no safe cut leaves minEntriesKept entries', async () => {
    // The only cut that leaves an entry would orphan the tool response.
    const outcome = await createTopDownTruncationStrategy({ minEntriesKept: 1 }).compress(
      contextFor([call('a'), result('a', 100)], { contextLimit: 50 }),
    );
    expect(outcome).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
  });

  it('should count each entry once, so its cost is linear in the history length', async () => {
    for (const entries of [150, 600]) {
      const tokenizer = wordTokenizer();
      const history = createSyntheticHistory({ entries, seed: 3 });
      const context = contextFor(history, { contextLimit: 1_000 }, tokenizer);
      // Cutting a giant result tokenizes the shortened text again; this test is about the cut search alone.
      await createTopDownTruncationStrategy({ cutOversizedToolResults: false }).compress(context);
      const texts = history.reduce((sum, entry) => sum + entry.blocks.length, 0);
      // Tool calls and results are counted as name + payload: at most two texts per block.
      expect(tokenizer.calls.length).toBeLessThanOrEqual(texts * 2);
    }
  });

  it('should estimate its reduction without compressing', async () => {
    const history = Array.from({ length: 10 }, () => human(10));
    const strategy = spec000();
    const estimate = await strategy.estimateReduction?.(contextFor(history, { contextLimit: 100 }));
    expect(estimate).toEqual({ tokensBefore: 130, estimatedTokensAfter: 39 });
  });

  describe('a newest tool output larger than the window (issue 13)', () => {
    const logLines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index} ok`).join('\n');
    const giant = (): HistoryEntry[] => [human(5), ai(5), human(5), call('log'), { ...result('log', 0), blocks: [{ type: 'tool_response', callId: 'log', toolName: 'Bash', result: logLines(5_000) }] }];

    it('should cut it to its beginning and end so the history fits the target, pairs intact', async () => {
      const context = contextFor(giant(), { contextLimit: 2_000 });
      const outcome = await createTopDownTruncationStrategy().compress(context);
      if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}`);
      expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeLessThanOrEqual(1_020);
      expect(findToolPairingProblems(outcome.newHistory)).toEqual([]);
      const block = outcome.newHistory.at(-1)?.blocks[0];
      const kept = block?.type === 'tool_response' && typeof block.result === 'string' ? block.result : '';
      expect(kept.startsWith('line 0 ok')).toBe(true);
      expect(kept.endsWith('line 4999 ok')).toBe(true);
      expect(outcome.metadata.counts).toMatchObject({ toolResultsCut: 1 });
      expect(outcome.warnings?.map((warning) => warning.message).join('\n')).toMatch(/cut 1 tool result to its beginning and end.*Bash \(log\)/);
    });

    it('should leave it whole, and say the target was not met, with cutOversizedToolResults: false', async () => {
      const context = contextFor(giant(), { contextLimit: 2_000 });
      const outcome = await createTopDownTruncationStrategy({ cutOversizedToolResults: false }).compress(context);
      if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}`);
      expect(outcome.newHistory.at(-1)).toBe(context.history.at(-1));
      expect(outcome.warnings?.map((warning) => warning.type)).toContain('target-not-met');
    });
  });

  describe('keepFirstUserMessage (issue 16: the task is kept, as truncation providers do)', () => {
    // 5 words + 3 = 8 tokens: the task statement of an agent run.
    const task: HistoryEntry = { speaker: 'human', blocks: [{ type: 'text', text: 'Fix the failing date test' }] };
    // 8, 13, 13, 13, 13, 13 tokens; contextLimit 120 → target floor(0.85 × 120 × 0.6) = 61.
    const session = () => [task, ai(10), human(10), ai(10), human(10), ai(10)];
    const notice = (dropped: number) => ({
      type: 'text',
      text: `[${dropped} earlier conversation entries were removed to fit the context window.]`,
    });

    it('should keep the first user message verbatim, then a notice, then the newest entries that fit', async () => {
      const context = contextFor(session(), { contextLimit: 120 });
      const outcome = await createTopDownTruncationStrategy().compress(context);
      if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}`);
      // The task (8) + the notice (14) + the newest three entries (39) = 61; with the fourth newest, 74 > 61.
      expect(outcome.newHistory[0]).toBe(context.history[0]);
      expect(getEntryGenerator(outcome.newHistory[1] as HistoryEntry)).toBe('top-down-truncation');
      expect(outcome.newHistory[1]?.blocks).toEqual([notice(2)]);
      expect(outcome.newHistory.slice(2)).toEqual(context.history.slice(3));
      expect(outcome.metadata.counts).toEqual({ entriesDropped: 2, entriesPinned: 1, tokensDropped: 26, noticesAdded: 1, toolResultsCut: 0 });
      expect(outcome.warnings?.[0]?.message).toBe(
        'dropped the 2 oldest entries after the first user message, which is kept (26 tokens); they are not retrievable',
      );
      expect(context.tokenCounter.countEntries(outcome.newHistory)).toBeLessThanOrEqual(61);
    });

    it('should drop the first user message as before with keepFirstUserMessage: false', async () => {
      const context = contextFor(session(), { contextLimit: 120 });
      const outcome = await spec000().compress(context);
      if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}`);
      // Cutting before entry 2 (a human entry) keeps 52 tokens and needs no notice.
      expect(outcome.newHistory).toEqual(context.history.slice(2));
      expect(outcome.newHistory).not.toContain(context.history[0]);
    });

    it('should keep the entries before the first user message with it: a slash command and a finished tool pair', async () => {
      const command: HistoryEntry = { speaker: 'human', blocks: [{ type: 'text', text: '<command-name>/init</command-name>' }] };
      const history = [command, call('a'), result('a', 2), task, ai(10), human(10), ai(10), human(10), ai(10)];
      const context = contextFor(history, { contextLimit: 150 }); // target 76
      const outcome = await createTopDownTruncationStrategy().compress(context);
      if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}`);
      expect(outcome.newHistory.slice(0, 4)).toEqual(context.history.slice(0, 4));
      expect(getEntryGenerator(outcome.newHistory[4] as HistoryEntry)).toBe('top-down-truncation');
      expect(outcome.newHistory.at(-1)).toBe(context.history.at(-1));
      expect(outcome.metadata.counts).toMatchObject({ entriesPinned: 4 });
      expect(findToolPairingProblems(outcome.newHistory)).toEqual([]);
    });

    it('should keep the first user message when it alone is over the target, and say the target was not met', async () => {
      const hugeTask = human(200);
      const history = [hugeTask, ai(5), human(5), ai(5), human(5), ai(5)];
      const context = contextFor(history, { contextLimit: 100 }); // target 51
      const outcome = await createTopDownTruncationStrategy().compress(context);
      if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}`);
      expect(outcome.newHistory[0]).toBe(context.history[0]);
      // As much as the rules allow is dropped: minEntriesKept (2) newest entries stay after the notice.
      expect(outcome.newHistory.slice(2)).toEqual(context.history.slice(4));
      expect(outcome.warnings?.map((warning) => warning.type)).toEqual(['lossy', 'target-not-met']);
      expect(outcome.warnings?.[1]?.message).toMatch(/the first entry \(through the first user message\) and the newest 2 entries cannot be split safely/);
    });

    it('should return too-few-compressible when nothing after the first user message can be dropped', async () => {
      const outcome = await createTopDownTruncationStrategy().compress(contextFor([human(200), ai(5), human(5)], { contextLimit: 100 }));
      expect(outcome).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
      expect(outcome.type === 'no-op' && outcome.message).toMatch(/no safe cut point leaves at least 2 entries after the first user message/);
    });

    it('should count the kept head in the estimate', async () => {
      const estimate = await createTopDownTruncationStrategy().estimateReduction?.(contextFor(session(), { contextLimit: 120 }));
      expect(estimate).toEqual({ tokensBefore: 73, estimatedTokensAfter: 61 });
    });
  });

  it('should reject invalid settings with a line naming the option', () => {
    expect(() => createTopDownTruncationStrategy({ minEntriesKept: 0 })).toThrow(InvalidStrategySettingsError);
    expect(() => createTopDownTruncationStrategy({ minEntriesKept: 0 })).toThrow(/minEntriesKept: Expected an integer ≥ 1/);
    expect(() => createTopDownTruncationStrategy({ keep: 3 } as never)).toThrow(/Unrecognized key/);
  });
});
