import { MockSummarizer, MockTokenizer, createTestCompressionContext } from '@ctx/conformance';
import {
  HistoryService,
  InvalidStrategySettingsError,
  createCompressionOrchestrator,
  createTokenCounter,
  findNewToolPairingProblems,
  parseHistory,
  type AppliedCompressionResult,
  type CompressionResult,
  type CompressionStrategyFactory,
  type HistoryEntry,
  type JsonValue,
  type ToolResponseBlock,
} from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems } from '@ctx/retention';
import { describe, expect, it } from 'vitest';
import { aiText, call, contextFor, human, lines, readSession, result, thinking, wordTokenizer } from './test-support/entries.js';
import type { TruncationSettings, TruncationSettingsInput } from './truncation-settings.js';
import { createTruncationStrategy } from './truncation-strategy.js';

// Compile-time check: the factory fits the contract's factory type, so registries and plugin loaders accept it.
const factory: CompressionStrategyFactory<TruncationSettingsInput, TruncationSettings> = createTruncationStrategy;

function applied(outcome: CompressionResult): AppliedCompressionResult {
  if (outcome.type !== 'applied') throw new Error(`expected an applied result, got no-op (${outcome.reason}): ${outcome.message ?? ''}`);
  return outcome;
}

const responseOf = (entry: HistoryEntry | undefined) => entry?.blocks[0] as ToolResponseBlock;

describe('createTruncationStrategy', () => {
  it('should be a threshold strategy named truncation that needs no LLM, with the documented defaults', () => {
    const strategy = factory();
    expect(strategy.name).toBe('truncation');
    expect(strategy.trigger).toEqual({ mode: 'threshold', defaultThreshold: 0.85 });
    expect(strategy.requiresLLM).toBe(false);
    expect(strategy.capabilities).toEqual({ lossless: false, estimatedSpeed: 'fast', rewritesUserText: false });
    expect('optimize' in strategy).toBe(false);
    expect(strategy.settings).toEqual({
      preserveRecentCount: 5,
      truncationMode: 'truncate',
      contentModes: { messageText: 'truncate', toolParameters: 'truncate', toolResults: 'truncate' },
      maxToolResultLines: 5,
      maxToolResultChars: 1000,
      maxToolParamChars: 100,
      maxMessageTextChars: 500,
      preserveUserMessages: true,
      preserveAssistantText: true,
      preserveErrors: true,
      preserveThinking: false,
      stopAtTarget: false,
      cutOversizedToolResults: true,
    });
  });

  describe('FR-TR-001 zones (first / old / recent)', () => {
    it('should keep the first message and the preserveRecentCount newest messages as the same objects and shorten only the old zone', async () => {
      const context = contextFor(readSession(6));
      const { newHistory } = applied(await createTruncationStrategy().compress(context));
      const input = context.history;
      expect(newHistory).toHaveLength(input.length);
      expect(newHistory[0]).toBe(input[0]);
      // Recent zone: the answer, the last two results and their calls (5 messages).
      for (let index = input.length - 5; index < input.length; index++) expect(newHistory[index]).toBe(input[index]);
      // Old zone: turns 1–4; their calls are short and stay, their results are cut to 5 lines.
      for (let index = 1; index < input.length - 5; index++) {
        if (input[index]?.speaker === 'ai') expect(newHistory[index]).toBe(input[index]);
        else expect(responseOf(newHistory[index]).result).toMatch(/^file \d line 1\n(.*\n){4}⟨ … 35 more lines truncated ⟩$/);
      }
    });

    it('should count preserveRecentCount in messages, so split assistant turns (Claude Code) and merged ones (OpenAI) keep the same content', async () => {
      const big = lines(40);
      // Claude Code stores one response as several ai entries and each result as its own tool entry.
      const split: HistoryEntry[] = [
        human('Go.'),
        call('a'),
        result('a', big),
        aiText('Reading both.'),
        call('b'),
        call('c'),
        result('b', big),
        result('c', big),
        aiText('Both read.'),
      ];
      const { newHistory } = applied(await createTruncationStrategy({ preserveRecentCount: 3 }).compress(contextFor(split)));
      // Three messages: [ai text, call b, call c], [result b, result c], [ai text]. Result a is old.
      expect(responseOf(newHistory[2]).result).toMatch(/truncated ⟩$/);
      expect(newHistory.slice(3)).toEqual(parseHistory(split.slice(3)));
    });

    it('should return too-few-compressible when the first and the recent zone cover the whole history', async () => {
      const outcome = await createTruncationStrategy({ preserveRecentCount: 5 }).compress(contextFor(readSession(2)));
      expect(outcome).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
      expect(outcome.type === 'no-op' && outcome.message).toMatch(/cover all 6 entries/);
    });

    it('should treat every message after the first as old with preserveRecentCount 0', async () => {
      const history = [...readSession(2), result('late', lines(40))].slice(0, -1);
      const { newHistory } = applied(await createTruncationStrategy({ preserveRecentCount: 0 }).compress(contextFor(history)));
      expect(responseOf(newHistory[4]).result).toMatch(/truncated ⟩$/);
    });
  });

  it('FR-TR-001 user/assistant text preserved: should keep long user and assistant text verbatim by default', async () => {
    const longText = lines(400, 'word');
    const history = [human('Start.'), human(longText), aiText(longText), call('a'), result('a', lines(40)), ...readSession(3)];
    const context = contextFor(history);
    const { newHistory } = applied(await createTruncationStrategy().compress(context));
    expect(newHistory[1]).toBe(context.history[1]);
    expect(newHistory[2]).toBe(context.history[2]);
    expect(responseOf(newHistory[4]).result).toMatch(/truncated ⟩$/);
  });

  it('FR-TR-001 user/assistant text preserved: should shorten them only when preserveUserMessages / preserveAssistantText are off', async () => {
    const longText = 'word '.repeat(400);
    const history = [human('Start.'), aiText(longText), human(longText), ...readSession(3)];
    const strategy = createTruncationStrategy({ preserveUserMessages: false, preserveAssistantText: false, maxMessageTextChars: 50 });
    expect(strategy.capabilities?.rewritesUserText).toBe(true);
    const { newHistory, metadata } = applied(await strategy.compress(contextFor(history)));
    const expected = `${'word '.repeat(10)}\n⟨ … 1,950 more characters truncated ⟩`;
    expect(newHistory[1]?.blocks[0]).toEqual({ type: 'text', text: expected });
    expect(newHistory[2]?.blocks[0]).toEqual({ type: 'text', text: expected });
    expect(metadata.counts).toMatchObject({ messageTextsTruncated: 2 });
    // The first message stays, whatever the settings.
    expect(newHistory[0]?.blocks[0]).toEqual({ type: 'text', text: 'Start.' });
  });

  it('FR-TR-001 configurable truncation thresholds: should cut results at maxToolResultLines / maxToolResultChars and parameter strings at maxToolParamChars', async () => {
    const history = [
      human('Go.'),
      call('a', { file_path: '/repo/a.ts', content: 'y y '.repeat(75) }, 'Write'),
      result('a', lines(30)),
      call('b'),
      result('b', `${'z '.repeat(2_500)}\nsecond line`),
      ...readSession(3).slice(1),
    ];
    const strategy = createTruncationStrategy({ maxToolResultLines: 2, maxToolResultChars: 100, maxToolParamChars: 20 });
    const { newHistory } = applied(await strategy.compress(contextFor(history)));
    expect(newHistory[1]?.blocks[0]).toMatchObject({
      parameters: { file_path: '/repo/a.ts', content: `${'y y '.repeat(5)}\n⟨ … 280 more characters truncated ⟩` },
    });
    expect(responseOf(newHistory[2]).result).toBe('line 1\nline 2\n⟨ … 28 more lines truncated ⟩');
    // Within the line limit but one huge line: the character limit cuts it.
    expect(responseOf(newHistory[4]).result).toBe(`${'z '.repeat(50)}\n⟨ … 4,912 more characters truncated ⟩`);

    const generous = applied(await createTruncationStrategy({ maxToolResultLines: 10 }).compress(contextFor(history)));
    expect(responseOf(generous.newHistory[2]).result).toBe(`${lines(10)}\n⟨ … 20 more lines truncated ⟩`);
  });

  it('FR-TR-001 deterministic results: should give deep-equal results for the same input and settings', async () => {
    const history = [...readSession(5), thinking('Let me think about this at length.'), aiText('ok')];
    const first = await createTruncationStrategy({ truncationMode: 'suppress' }).compress(contextFor(history));
    const second = await createTruncationStrategy({ truncationMode: 'suppress' }).compress(contextFor(history));
    expect(first.type).toBe('applied');
    expect(second).toEqual(first);
  });

  it('FR-TR-001 no API calls: should never call the summarizer and report llmCallMade false', async () => {
    const summarizer = new MockSummarizer();
    const context = createTestCompressionContext({ history: readSession(5), tokenizer: wordTokenizer(), summarizer });
    const outcome = applied(await createTruncationStrategy().compress(context));
    expect(summarizer.calls).toHaveLength(0);
    expect(outcome.metadata.llmCallMade).toBe(false);
  });

  it('FR-TR-001 fast execution (<100 ms): should tokenize only the entries it changes, so its cost is linear (timings: apps/playground/bench/truncation.bench.ts)', async () => {
    for (const turns of [20, 80]) {
      const tokenizer = new MockTokenizer((text) => text.split(/\s+/).filter(Boolean).length);
      const context = contextFor(readSession(turns), { tokenizer });
      // Warm cache, as in an agent loop: the history service has counted every entry already.
      context.tokenCounter.countEntries(context.history);
      const warm = tokenizer.calls.length;
      const { metadata } = applied(await createTruncationStrategy().compress(context));
      const changed = (metadata.counts?.['entriesChanged'] as number) + (metadata.counts?.['entriesRemoved'] as number);
      expect(changed).toBe(turns - 2);
      // One new text per changed tool response (its shortened result; the tool's name was counted before): one
      // tokenizer call each, nothing else.
      expect(tokenizer.calls.length - warm).toBe(changed);
    }
  });

  it('FR-TR-001 fast execution (<100 ms): should hand the orchestrator entries it keeps as they are, so a whole pass tokenizes each changed entry once', async () => {
    const tokenizer = new MockTokenizer((text) => text.split(/\s+/).filter(Boolean).length);
    const history = new HistoryService({ tokenCounter: createTokenCounter(tokenizer), history: readSession(20) });
    await history.waitForTokenUpdates();
    const warm = tokenizer.calls.length;
    const orchestrator = createCompressionOrchestrator({
      history,
      strategies: [createTruncationStrategy()],
      contextLimit: history.getTotalTokens(),
    });
    const report = await orchestrator.ensureCompressionBeforeSend();
    orchestrator.dispose();
    expect(report.passes.map((pass) => pass.outcome)).toEqual(['applied']);
    // 18 shortened results, one new text each (the tool's name was counted before); the history service's recount
    // hits the cache.
    expect(tokenizer.calls.length - warm).toBe(18);
  });

  describe('FR-TR-002 suppression vs truncation modes', () => {
    const history = [
      human('Go.'),
      call('a', { command: `cat <<'EOF' > notes.md\n${lines(30)}\nEOF` }, 'Bash'),
      result('a', lines(30), { toolName: 'Bash' }),
      ...readSession(3).slice(1),
    ];

    it('FR-TR-002 suppress mode implemented: should replace content over its limits with ⟨ Content suppressed ⟩', async () => {
      const { newHistory, metadata } = applied(await createTruncationStrategy({ truncationMode: 'suppress' }).compress(contextFor(history)));
      expect(newHistory[1]?.blocks[0]).toMatchObject({ parameters: { command: '⟨ Content suppressed ⟩' } });
      expect(responseOf(newHistory[2]).result).toBe('⟨ Content suppressed ⟩');
      expect(metadata.counts).toMatchObject({ toolParametersSuppressed: 1, toolResultsSuppressed: 2, toolResultsTruncated: 0 });
    });

    it('FR-TR-002 truncate mode implemented: should keep the first lines or characters followed by a truncation marker', async () => {
      const { newHistory, metadata } = applied(await createTruncationStrategy({ truncationMode: 'truncate' }).compress(contextFor(history)));
      expect(newHistory[1]?.blocks[0]).toMatchObject({
        parameters: { command: expect.stringMatching(/^cat <<'EOF' > notes\.md\nline 1\n[\s\S]{60,100}\n⟨ … \d+ more characters truncated ⟩$/) as unknown },
      });
      expect(responseOf(newHistory[2]).result).toBe(`${lines(5)}\n⟨ … 25 more lines truncated ⟩`);
      expect(metadata.counts).toMatchObject({ toolParametersTruncated: 1, toolResultsTruncated: 2, toolResultsSuppressed: 0 });
    });

    it('FR-TR-002 mode configurable per content type: should apply contentModes over truncationMode, including keep', async () => {
      const strategy = createTruncationStrategy({ truncationMode: 'suppress', contentModes: { toolParameters: 'keep', toolResults: 'truncate' } });
      expect(strategy.settings?.contentModes).toEqual({ messageText: 'suppress', toolParameters: 'keep', toolResults: 'truncate' });
      const context = contextFor(history);
      const { newHistory } = applied(await strategy.compress(context));
      expect(newHistory[1]).toBe(context.history[1]);
      expect(responseOf(newHistory[2]).result).toMatch(/^line 1\n[\s\S]*⟨ … 25 more lines truncated ⟩$/);

      const parametersOnly = createTruncationStrategy({ contentModes: { toolParameters: 'suppress', toolResults: 'keep' } });
      const other = applied(await parametersOnly.compress(contextFor(history)));
      expect(other.newHistory[1]?.blocks[0]).toMatchObject({ parameters: { command: '⟨ Content suppressed ⟩' } });
      expect(other.newHistory[2]).toEqual(context.history[2]);
    });

    it('FR-TR-002 visual markers clear: should say what happened and how much was cut, on a line of its own', async () => {
      const sentence = 'one two three four five six seven eight nine ten';
      const outputs = [
        [`${lines(5)}\n${sentence}`, { maxToolResultLines: 5 }, `${lines(5)}\n⟨ … 1 more line truncated ⟩`],
        [lines(1_200), { maxToolResultLines: 1, maxToolResultChars: 100_000 }, 'line 1\n⟨ … 1,199 more lines truncated ⟩'],
        ['a '.repeat(600), { maxToolResultChars: 1_000 }, `${'a '.repeat(500)}\n⟨ … 200 more characters truncated ⟩`],
        [lines(40), { truncationMode: 'suppress' }, '⟨ Content suppressed ⟩'],
      ] as const;
      for (const [text, settings, expected] of outputs) {
        // These small histories stay over the target; cutting results further to fit it is tested on its own.
        const { newHistory } = applied(
          await createTruncationStrategy({ ...settings, cutOversizedToolResults: false }).compress(contextFor([human('Go.'), call('a'), result('a', text), ...readSession(3).slice(1)])),
        );
        expect(responseOf(newHistory[2]).result).toBe(expected);
      }
    });

    it('FR-TR-002 token savings measured: should report per-operation counts and token savings that add up to the real difference', async () => {
      const mixed = [
        ...history.slice(0, 3),
        { speaker: 'ai' as const, blocks: [{ type: 'thinking' as const, thought: lines(50) }, { type: 'text' as const, text: 'Next.' }] },
        human('Continue.'),
        ...readSession(3).slice(1),
      ];
      const context = contextFor(mixed);
      const { newHistory, metadata } = applied(await createTruncationStrategy().compress(context));
      const counter = createTokenCounter(wordTokenizer());
      const saved = counter.countEntries(context.history) - counter.countEntries(newHistory);
      const counts = metadata.counts as Record<string, number>;
      expect(saved).toBeGreaterThan(0);
      expect(counts['tokensSaved']).toBe(saved);
      expect(
        (counts['messageTextTokensSaved'] as number) +
          (counts['toolParameterTokensSaved'] as number) +
          (counts['toolResultTokensSaved'] as number) +
          (counts['thinkingTokensSaved'] as number),
      ).toBe(saved);
      // 50 words of thinking + its 50 line numbers dropped: 100 tokens.
      expect(counts['thinkingTokensSaved']).toBe(100);
      // Results: the Bash output and the first read (the last two reads are recent).
      expect(counts).toMatchObject({ thinkingBlocksDropped: 1, entriesChanged: 4, entriesRemoved: 0, toolResultsTruncated: 2, toolParametersTruncated: 1 });
    });
  });

  it('should keep error results verbatim unless preserveErrors is off', async () => {
    const failure = `Exit code 1\n${lines(40, 'Traceback line')}`;
    const history = [human('Go.'), call('a', { command: 'pytest' }, 'Bash'), result('a', failure, { toolName: 'Bash' }), ...readSession(3).slice(1)];
    const kept = applied(await createTruncationStrategy().compress(contextFor(history)));
    expect(responseOf(kept.newHistory[2]).result).toBe(failure);
    expect(kept.metadata.counts).toMatchObject({ errorResultsKept: 1 });

    const cut = applied(await createTruncationStrategy({ preserveErrors: false }).compress(contextFor(history)));
    expect(responseOf(cut.newHistory[2]).result).toMatch(/^Exit code 1\n[\s\S]*⟨ … 36 more lines truncated ⟩$/);
  });

  it('should drop old thinking whole, remove an entry left empty, and keep thinking with preserveThinking', async () => {
    const history = [
      human('Go.'),
      thinking(lines(30)),
      { speaker: 'ai' as const, blocks: [{ type: 'thinking' as const, thought: lines(30) }, { type: 'text' as const, text: 'Reading.' }] },
      ...call('a').blocks.map((block) => ({ speaker: 'ai' as const, blocks: [block] })),
      result('a', lines(3)),
      ...readSession(2).slice(1),
    ];
    const context = contextFor(history);
    const { newHistory, metadata } = applied(await createTruncationStrategy().compress(context));
    expect(newHistory).toHaveLength(history.length - 1);
    expect(newHistory[1]?.blocks).toEqual([{ type: 'text', text: 'Reading.' }]);
    expect(metadata.counts).toMatchObject({ thinkingBlocksDropped: 2, entriesRemoved: 1, entriesChanged: 1 });
    expect(findNewToolPairingProblems(context.history, newHistory)).toEqual([]);

    const kept = await createTruncationStrategy({ preserveThinking: true }).compress(contextFor(history));
    expect(kept).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
  });

  it('should keep the thinking of the assistant turn still in its tool loop, even with preserveRecentCount 0 (Anthropic rejects the request without it)', async () => {
    const openThinking = { type: 'thinking' as const, thought: lines(30, 'plan'), signature: 'sig-open' };
    const history: HistoryEntry[] = [
      human('Go.'),
      { speaker: 'ai', blocks: [{ type: 'thinking', thought: lines(30, 'old plan'), signature: 'sig-old' }, ...call('a').blocks] },
      result('a', lines(40)),
      // A prompt after the results ends that turn (encoded, it joins their user message and starts a new turn).
      human('Now b.'),
      // Claude Code stores the turn still waiting for the model as a thinking entry, then a call entry.
      { speaker: 'ai', blocks: [openThinking] },
      call('b'),
      result('b', lines(40)),
    ];
    for (const preserveRecentCount of [0, 1]) {
      const { newHistory, metadata } = applied(await createTruncationStrategy({ preserveRecentCount }).compress(contextFor(history)));
      const openTurn = newHistory.slice(-3, -1);
      expect(openTurn.flatMap((entry) => entry.blocks), `preserveRecentCount ${preserveRecentCount}`).toEqual([openThinking, ...call('b').blocks]);
      // The finished turn's thinking still goes.
      expect(newHistory[1]?.blocks.map((block) => block.type)).toEqual(['tool_call']);
      expect(metadata.counts).toMatchObject({ thinkingBlocksDropped: 1 });
    }
  });

  it('should never leave an assistant entry holding only blank text: it is removed like an entry left with nothing', async () => {
    for (const blank of ['', ' \n\t ']) {
      const history: HistoryEntry[] = [
        human('Go.'),
        { speaker: 'ai', blocks: [{ type: 'thinking', thought: lines(30), signature: 'sig-1' }, { type: 'text', text: blank }] },
        human('Continue.'),
        call('a'),
        result('a', lines(40)),
        ...readSession(2).slice(1),
      ];
      const context = contextFor(history);
      const { newHistory, metadata } = applied(await createTruncationStrategy().compress(context));
      const blankOnly = newHistory.filter(
        (entry) => entry.speaker === 'ai' && entry.blocks.every((block) => block.type === 'text' && block.text.trim() === ''),
      );
      expect(blankOnly, JSON.stringify(blank)).toEqual([]);
      expect(newHistory).toHaveLength(history.length - 1);
      expect(metadata.counts).toMatchObject({ thinkingBlocksDropped: 1, entriesRemoved: 1 });
      expect(findNewValidityProblems(checkProviderValidity({ history: context.history }), checkProviderValidity({ history: newHistory }))).toEqual({
        anthropic: [],
        openai: [],
      });
    }
  });

  it('should keep the shape of structured results and replace attachments whole instead of cutting their data', async () => {
    const gemini = [{ functionResponse: { id: 'call-1', name: 'run_shell_command', response: { output: lines(40) } } }];
    const anthropic: JsonValue = [
      { type: 'text', text: lines(40) },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(4_000) } },
    ];
    const screenshot: HistoryEntry = {
      speaker: 'tool',
      blocks: [
        { type: 'tool_response', callId: 'b', toolName: 'Screenshot', result: 'saved' },
        { type: 'media', mediaType: 'image/png', data: 'B'.repeat(4_000) },
      ],
    };
    const history = [human('Go.'), call('a'), result('a', gemini), call('b'), screenshot, call('c'), result('c', anthropic), ...readSession(3).slice(1)];
    const { newHistory } = applied(await createTruncationStrategy().compress(contextFor(history)));
    expect(responseOf(newHistory[2]).result).toEqual([
      {
        functionResponse: {
          id: 'call-1',
          name: 'run_shell_command',
          response: { output: `${lines(5)}\n⟨ … 35 more lines truncated ⟩` },
        },
      },
    ]);
    expect(newHistory[4]?.blocks).toEqual([
      { type: 'tool_response', callId: 'b', toolName: 'Screenshot', result: 'saved' },
      { type: 'text', text: '⟨ Content suppressed ⟩' },
    ]);
    expect(responseOf(newHistory[6]).result).toEqual([
      { type: 'text', text: `${lines(5)}\n⟨ … 35 more lines truncated ⟩` },
      { type: 'text', text: '⟨ Content suppressed ⟩' },
    ]);
  });

  it('should keep block and entry metadata of the entries it shortens', async () => {
    const entry: HistoryEntry = {
      speaker: 'tool',
      blocks: [{ type: 'tool_response', callId: 'a', toolName: 'Read', result: lines(40), providerMetadata: { claudeCode: { recordUuid: 'r-1' } } }],
      metadata: { id: 'uuid-1', timestamp: '2026-01-01T00:00:00.000Z' },
    };
    const { newHistory } = applied(await createTruncationStrategy().compress(contextFor([human('Go.'), call('a'), entry, ...readSession(3).slice(1)])));
    expect(newHistory[2]).toMatchObject({
      metadata: entry.metadata,
      blocks: [{ providerMetadata: { claudeCode: { recordUuid: 'r-1' } }, result: expect.stringMatching(/truncated ⟩$/) as unknown }],
    });
  });

  it('should change nothing on its own output (idempotent) and say why', async () => {
    const first = applied(await createTruncationStrategy().compress(contextFor(readSession(6))));
    const second = await createTruncationStrategy().compress(contextFor(first.newHistory));
    expect(second).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
    expect(second.type === 'no-op' && second.message).toMatch(/nothing in the 8 old entries is over its limits/);
  });

  it('should stop at the target with stopAtTarget, oldest first, and leave the newer old entries whole', async () => {
    // 30 turns of 40-line results; the window is the history's size, so the target is 51% of it.
    const history = readSession(30);
    const all = applied(await createTruncationStrategy().compress(contextFor(history)));
    const context = contextFor(history);
    const some = applied(await createTruncationStrategy({ stopAtTarget: true }).compress(context));
    const counter = createTokenCounter(wordTokenizer());
    expect(counter.countEntries(some.newHistory)).toBeLessThanOrEqual(context.budget.targetTokens);
    expect(counter.countEntries(some.newHistory)).toBeGreaterThan(counter.countEntries(all.newHistory));
    const truncated = some.newHistory
      .filter((entry) => entry.speaker === 'tool')
      .map((entry) => {
        const output = responseOf(entry).result;
        return typeof output === 'string' && /truncated ⟩$/.test(output);
      });
    // The oldest results are truncated, then none: processing stopped once the target was met.
    const firstKept = truncated.indexOf(false);
    expect(firstKept).toBeGreaterThan(0);
    expect(firstKept).toBeLessThan(28);
    expect(truncated.slice(firstKept).includes(true)).toBe(false);
    expect(some.warnings?.map((warning) => warning.type)).toEqual(['lossy']);
  });

  it('should warn lossy with what it cut, and target-not-met when the preserved part is over the target', async () => {
    const history = [human(lines(500, 'requirement')), call('a'), result('a', lines(40)), ...readSession(2).slice(1)];
    const outcome = applied(await createTruncationStrategy().compress(contextFor(history)));
    expect(outcome.warnings?.map((warning) => warning.type)).toEqual(['lossy', 'target-not-met']);
    expect(outcome.warnings?.[0]?.message).toMatch(/^shortened 1 tool result in entries 1–2 \(\d+ tokens\); the cut content is not retrievable$/);
  });

  describe('cutOversizedToolResults: a tool output larger than the budget', () => {
    const logLines = (count: number) => Array.from({ length: count }, (_, index) => `log ${index} ok`).join('\n');
    // The newest result, in the recent zone, is alone far larger than the 2,000-token window.
    const giant = (): HistoryEntry[] => [human('Go.'), ...readSession(4).slice(1, -1), call('log', { command: 'make' }, 'Bash'), result('log', logLines(5_000), { toolName: 'Bash' })];
    const resultText = (entry: HistoryEntry | undefined) => {
      const output = responseOf(entry).result;
      return typeof output === 'string' ? output : JSON.stringify(output);
    };

    it('should cut it to its beginning and end so the history fits the target, pairs intact', async () => {
      const context = contextFor(giant(), { contextLimit: 2_000 });
      const { newHistory, metadata, warnings } = applied(await createTruncationStrategy().compress(context));
      const counter = createTokenCounter(wordTokenizer());
      expect(counter.countEntries(newHistory)).toBeLessThanOrEqual(context.budget.targetTokens);
      expect(findNewToolPairingProblems(context.history, newHistory)).toEqual([]);
      const kept = resultText(newHistory.at(-1));
      expect(kept.startsWith('log 0 ok\nlog 1 ok')).toBe(true);
      expect(kept.endsWith('log 4998 ok\nlog 4999 ok')).toBe(true);
      expect(kept).toMatch(/lines \([\d,]+ tokens\) of this Bash result were cut by ctx to fit the context window/);
      expect(metadata.counts).toMatchObject({ toolResultsCut: 1 });
      // Savings still add up to the real difference, the cut included.
      expect(metadata.counts?.['tokensSaved']).toBe(counter.countEntries(context.history) - counter.countEntries(newHistory));
      expect(warnings?.map((warning) => warning.message).join('\n')).toMatch(/cut 1 tool result to its beginning and end.*Bash \(log\) 15,\d{3} → /);
      expect(warnings?.map((warning) => warning.type)).not.toContain('target-not-met');
      // The rest of the recent zone is untouched.
      expect(newHistory.at(-2)).toBe(context.history.at(-2));
    });

    it('should estimate exactly what compress() does, the cut included', async () => {
      const strategy = createTruncationStrategy();
      const estimate = await strategy.estimateReduction?.(contextFor(giant(), { contextLimit: 2_000 }));
      const { newHistory } = applied(await strategy.compress(contextFor(giant(), { contextLimit: 2_000 })));
      expect(estimate?.estimatedTokensAfter).toBe(createTokenCounter(wordTokenizer()).countEntries(newHistory));
    });

    it('should cut results it left whole before error results, and errors only when nothing else is left', async () => {
      const failure = `Exit code 1\n${logLines(200)}`;
      const bash = (id: string, output: string) => [call(id, { command: 'make' }, 'Bash'), result(id, output, { toolName: 'Bash' })];
      // Three results of the same size: cutting them all alike would cut the error too.
      const history = [human('Go.'), ...bash('fail', failure), ...bash('b', logLines(200)), ...bash('c', logLines(200))];
      const roomy = applied(await createTruncationStrategy().compress(contextFor(history, { contextLimit: 2_750 })));
      expect(resultText(roomy.newHistory[2])).toBe(failure);
      expect(resultText(roomy.newHistory[4])).toMatch(/were cut by ctx/);
      expect(resultText(roomy.newHistory[6])).toMatch(/were cut by ctx/);

      const tight = applied(await createTruncationStrategy().compress(contextFor(history, { contextLimit: 1_000 })));
      expect(resultText(tight.newHistory[2])).toMatch(/^Exit code 1\n[\s\S]*were cut by ctx[\s\S]*log 199 ok$/);
      expect(tight.metadata.counts).toMatchObject({ toolResultsCut: 3 });
    });

    it('should leave it whole, and say the target was not met, with cutOversizedToolResults: false', async () => {
      const context = contextFor(giant(), { contextLimit: 2_000 });
      const { newHistory, metadata, warnings } = applied(await createTruncationStrategy({ cutOversizedToolResults: false }).compress(context));
      expect(newHistory.at(-1)).toBe(context.history.at(-1));
      expect(metadata.counts).toMatchObject({ toolResultsCut: 0 });
      expect(warnings?.map((warning) => warning.type)).toContain('target-not-met');
    });
  });

  it('EC-001: should return a no-op with reason empty-history for an empty history', async () => {
    expect(await createTruncationStrategy().compress(contextFor([]))).toEqual({ type: 'no-op', reason: 'empty-history' });
  });

  it('should return already-under-target when the history fits', async () => {
    const outcome = await createTruncationStrategy().compress(contextFor(readSession(6), { contextLimit: 1_000_000 }));
    expect(outcome).toMatchObject({ type: 'no-op', reason: 'already-under-target' });
  });

  it('should estimate its reduction as exactly what compress() does', async () => {
    const strategy = createTruncationStrategy();
    const estimate = await strategy.estimateReduction?.(contextFor(readSession(6)));
    const { newHistory } = applied(await strategy.compress(contextFor(readSession(6))));
    const counter = createTokenCounter(wordTokenizer());
    expect(estimate).toEqual({ tokensBefore: counter.countEntries(parseHistory(readSession(6))), estimatedTokensAfter: counter.countEntries(newHistory) });
    expect(await strategy.estimateReduction?.(contextFor(readSession(6), { contextLimit: 1_000_000 }))).toEqual({
      tokensBefore: estimate?.tokensBefore,
      estimatedTokensAfter: estimate?.tokensBefore,
    });
  });

  it('should reject invalid settings with a line naming the option', () => {
    expect(() => createTruncationStrategy({ maxToolResultLines: 0 })).toThrow(InvalidStrategySettingsError);
    expect(() => createTruncationStrategy({ maxToolResultLines: 0 })).toThrow(/maxToolResultLines: Expected an integer ≥ 1/);
    expect(() => createTruncationStrategy({ preserveRecentCount: -1 })).toThrow(/preserveRecentCount: Expected an integer ≥ 0/);
    expect(() => createTruncationStrategy({ preserveRecentCount: 2.5 })).toThrow(/preserveRecentCount: Expected an integer ≥ 0/);
    expect(() => createTruncationStrategy({ truncationMode: 'drop' } as never)).toThrow(/truncationMode: Expected "suppress" or "truncate"/);
    expect(() => createTruncationStrategy({ contentModes: { toolResults: 'drop' } } as never)).toThrow(
      /contentModes\.toolResults: Expected "keep", "suppress" or "truncate"/,
    );
    expect(() => createTruncationStrategy({ keep: 3 } as never)).toThrow(/Unrecognized key/);
  });

  it('should accept its own resolved settings again unchanged', () => {
    const strategy = createTruncationStrategy({ truncationMode: 'suppress', contentModes: { toolResults: 'keep' } });
    expect(createTruncationStrategy(strategy.settings).settings).toEqual(strategy.settings);
  });
});
