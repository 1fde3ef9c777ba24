import { MockSummarizer } from '@ctx/conformance';
import {
  HistoryService,
  applyDensityResultToHistory,
  InvalidStrategySettingsError,
  SummarizerError,
  findToolPairingProblems,
  getEntryGenerator,
  isEmptyDensityResult,
  parseHistory,
  type CompressionResult,
  type CompressionStrategy,
  type DensityConfig,
  type HistoryEntry,
  type SummarizeRequest,
  type ToolResponseBlock,
} from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { SUPPRESSED_CONTENT_MARKER } from './content-markers.js';
import type { PassConfigInput, SmartPassesSettingsInput } from './smart-passes-settings.js';
import { defaultPasses, summarizeOldToolResultsPass } from './default-passes.js';
import { createSmartPassesStrategy } from './smart-passes-strategy.js';
import { aiText, call, contextFor, human, lines, readSession, result, wordTokenizer } from './test-support/entries.js';

const densityConfig: DensityConfig = { readWritePruning: true, fileDedupe: true, recencyPruning: false, recencyRetention: 3, workspaceRoot: '/repo' };

function individual(id: string, defaults: NonNullable<PassConfigInput['individualConfig']>['defaults'], extra: Partial<PassConfigInput> = {}): PassConfigInput {
  return {
    id,
    name: id,
    selection: { type: 'preserve_recent', keepRecentCount: 1 },
    mode: 'individual',
    individualConfig: { defaults },
    execution: { type: 'always' },
    ...extra,
  };
}

function applied(outcome: CompressionResult) {
  if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.reason}: ${outcome.message ?? ''}`);
  return outcome;
}

const resultOf = (entry: HistoryEntry | undefined) => (entry?.blocks[0] as ToolResponseBlock).result;

async function run(settings: SmartPassesSettingsInput, history: readonly HistoryEntry[], options: Parameters<typeof contextFor>[1] = {}) {
  const context = contextFor(history, options);
  return { context, outcome: await createSmartPassesStrategy(settings).compress(context) };
}

describe('FR-SM-002 four operations', () => {
  it('should implement keep: a pass that keeps everything changes nothing and says so', async () => {
    const { outcome } = await run({ passes: [individual('keep-all', {})] }, readSession(3));
    expect(outcome).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
  });

  it('should implement suppress: a tool result becomes the marker and stays paired with its call', async () => {
    const history = readSession(3);
    const { outcome } = await run({ passes: [individual('suppress', { toolResults: 'suppress' })] }, history);
    const { newHistory, metadata } = applied(outcome);
    expect(resultOf(newHistory[2])).toBe(SUPPRESSED_CONTENT_MARKER);
    expect(newHistory).toHaveLength(history.length);
    expect(findToolPairingProblems(newHistory)).toEqual([]);
    expect(metadata.counts?.['suppress.toolResultsSuppressed']).toBe(3);
  });

  it('should implement suppress for tool parameters string by string, so the call keeps an object with its keys', async () => {
    const history = [human('go'), call('c1', { command: lines(30, 'echo'), timeout: 5 }, 'Bash'), result('c1', 'ok', { toolName: 'Bash' }), aiText('done')];
    const { outcome } = await run({ passes: [individual('params', { toolParameters: 'suppress' })] }, history);
    const parameters = (applied(outcome).newHistory[1]?.blocks[0] as { parameters: unknown }).parameters;
    expect(parameters).toEqual({ command: SUPPRESSED_CONTENT_MARKER, timeout: 5 });
  });

  it('should implement truncate: the first lines and a marker saying how many were cut, and truncating again changes nothing', async () => {
    const history = readSession(3);
    const strategy = createSmartPassesStrategy({ passes: [individual('cut', { toolResults: { operation: 'truncate', params: { truncate: { maxLines: 2 } } } })] });
    const first = applied(await strategy.compress(contextFor(history)));
    expect(resultOf(first.newHistory[2])).toBe('file 1 line 1\nfile 1 line 2\n⟨ ... truncated 38 lines ⟩');
    expect(first.metadata.counts?.['cut.toolResultsTruncated']).toBe(3);
    const again = await strategy.compress(contextFor(first.newHistory, { contextLimit: 1 }));
    expect(again).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
  });

  it('should implement summarize: one summarizer call per piece with the custom prompt and maxTokens, in order', async () => {
    const summarizer = new MockSummarizer((request: SummarizeRequest) => `summary of ${(request.entries[0]?.blocks[0] as { text: string }).text.split(' ').slice(0, 2).join(' ')}`);
    const settings: SmartPassesSettingsInput = {
      passes: [
        individual('sum', {
          toolResults: { operation: 'summarize', params: { summarize: { customPrompt: 'Say what the file holds.', maxTokens: 50 } } },
        }),
      ],
    };
    const { outcome } = await run(settings, readSession(3), { summarizer });
    const { newHistory, metadata } = applied(outcome);
    expect(summarizer.calls).toHaveLength(3);
    expect(summarizer.calls.map((request) => [request.instructions, request.maxOutputTokens])).toEqual(Array.from({ length: 3 }, () => ['Say what the file holds.', 50]));
    expect([2, 4, 6].map((index) => resultOf(newHistory[index]))).toEqual(['⟨ Summarized ⟩\nsummary of file 1', '⟨ Summarized ⟩\nsummary of file 2', '⟨ Summarized ⟩\nsummary of file 3']);
    expect(metadata).toMatchObject({ llmCallMade: true, counts: { 'sum.toolResultsSummarized': 3, 'sum.summarized': 3, summarizerCalls: 3 } });
  });

  it('should truncate instead of summarizing without a summarizer, or when it fails, with a fallback warning counting the pieces', async () => {
    const settings: SmartPassesSettingsInput = { passes: [individual('sum', { toolResults: 'summarize' })] };
    const without = applied((await run(settings, readSession(3))).outcome);
    expect(resultOf(without.newHistory[2])).toMatch(/⟨ \.\.\. truncated 35 lines ⟩$/);
    expect(without.warnings).toContainEqual({ type: 'fallback', message: 'pass sum: truncated 3 pieces instead of summarizing them: no summarizer was given' });
    const failing = new MockSummarizer(() => {
      throw new SummarizerError({ summarizer: 'mock', reason: 'timeout', message: 'no answer in 120 s' });
    });
    const failed = applied((await run(settings, readSession(3), { summarizer: failing })).outcome);
    expect(failed.warnings?.find((warning) => warning.type === 'fallback')?.message).toMatch(/truncated 3 pieces .*no answer in 120 s/);
    expect(failed.metadata.llmCallMade).toBe(true);
  });

  it('should validate operation parameters, naming the option and the fix', () => {
    const bad = { passes: [individual('cut', { toolResults: { operation: 'truncate', params: { truncate: { maxLines: 0 } } } })] };
    expect(() => createSmartPassesStrategy(bad)).toThrow(/passes\[0\]\.individualConfig\.defaults\.toolResults.*Expected/s);
    expect(() => createSmartPassesStrategy({ passes: [individual('cut', { toolResults: 'shrink' as never })] })).toThrow(InvalidStrategySettingsError);
  });

  it('should measure the token savings of each pass', async () => {
    const history = readSession(4);
    const { context, outcome } = await run(
      { passes: [individual('cut', { toolResults: 'truncate' }), individual('drop', { toolResults: 'suppress' })] },
      history,
      { contextLimit: 100 },
    );
    const { newHistory, metadata } = applied(outcome);
    const counts = metadata.counts ?? {};
    const saved = context.tokenCounter.countEntries(history) - context.tokenCounter.countEntries(newHistory);
    expect((counts['cut.tokensSaved'] ?? 0) + (counts['drop.tokensSaved'] ?? 0)).toBe(saved);
    expect(counts['cut.tokensSaved']).toBeGreaterThan(0);
    expect(counts['drop.tokensSaved']).toBeGreaterThan(0);
    expect(counts['tokensSaved']).toBe(saved);
  });

  it('should never change user-typed text, only assistant text, with messageText operations', async () => {
    const long = lines(200, 'word');
    const history = [human(long), aiText(long), human('ok')];
    const { context, outcome } = await run({ passes: [individual('text', { messageText: 'suppress' })] }, history);
    const { newHistory } = applied(outcome);
    expect(newHistory[0]).toBe(context.history[0]);
    expect(newHistory[1]?.blocks[0]).toEqual({ type: 'text', text: SUPPRESSED_CONTENT_MARKER });
  });

  it('should keep error results unless keepErrors is false', async () => {
    const history = [human('go'), call('c1'), result('c1', lines(40), { isError: true }), aiText('failed; retrying')];
    const kept = await run({ passes: [individual('drop', { toolResults: 'suppress' })] }, history);
    expect(kept.outcome.type).toBe('no-op');
    const pass = individual('drop', { toolResults: 'suppress' });
    const dropped = await run({ passes: [{ ...pass, individualConfig: { defaults: { toolResults: 'suppress' }, keepErrors: false } }] }, history);
    expect(resultOf(applied(dropped.outcome).newHistory[2])).toBe(SUPPRESSED_CONTENT_MARKER);
  });

  it('should touch only the tool calls of the kinds in toolKinds (shell output cut, file reads kept)', async () => {
    const history = [
      human('go'),
      call('r1', { file_path: '/repo/a.ts' }, 'Read'),
      result('r1', lines(40, 'code')),
      call('b1', { command: 'npm test' }, 'Bash'),
      result('b1', lines(40, 'log'), { toolName: 'Bash' }),
      aiText('done'),
    ];
    const { context, outcome } = await run({ passes: [individual('shell', { toolResults: 'suppress' }, { toolKinds: ['shell'] })] }, history);
    const { newHistory } = applied(outcome);
    expect(newHistory[2]).toBe(context.history[2]);
    expect(resultOf(newHistory[4])).toBe(SUPPRESSED_CONTENT_MARKER);
  });
});

describe('fileContent: superseded', () => {
  it('should touch only file content a later read of the same file replaced, keeping the latest state of each file', async () => {
    const history = [
      human('go'),
      call('r1', { file_path: '/repo/a.ts' }),
      result('r1', lines(40, 'old a')),
      call('r2', { file_path: '/repo/b.ts' }),
      result('r2', lines(40, 'b')),
      call('r3', { file_path: '/repo/a.ts' }),
      result('r3', lines(40, 'new a')),
      aiText('done'),
    ];
    const pass = individual('stale', { toolResults: 'suppress' }, { selection: { type: 'preserve_recent', keepRecentCount: 0 }, fileContent: 'superseded' });
    const { context, outcome } = await run({ passes: [pass] }, history);
    const { newHistory } = applied(outcome);
    expect(resultOf(newHistory[2])).toBe(SUPPRESSED_CONTENT_MARKER);
    expect(newHistory[4]).toBe(context.history[4]);
    expect(newHistory[6]).toBe(context.history[6]);
    expect(() => createSmartPassesStrategy({ passes: [{ ...pass, mode: 'batch', batchConfig: { operation: 'summarize' } }] })).toThrow(/Expected fileContent "all" for a pass with mode "batch"/);
  });
});

describe('fileContent: superseded, after parameters were cut', () => {
  // Two reads of different files whose paths a pass cuts to one character: both become `/`. The cut paths must not make
  // the first read look superseded by the second.
  const cutPaths = individual(
    'cut-paths',
    { toolParameters: { operation: 'truncate', params: { truncate: { maxChars: 1, maxLines: 1, addEllipsis: false } } } },
    { selection: { type: 'preserve_percent', keepPercentage: 0 } },
  );
  const stale = individual('stale', { toolResults: 'suppress' }, { selection: { type: 'preserve_recent', keepRecentCount: 0 }, fileContent: 'superseded' });
  // Paths of several words, so that cutting them saves tokens for the word-counting test tokenizer too.
  const [pathA, pathB] = ['/repo/notes on a.ts', '/repo/notes on b.ts'];
  const history = [human('go'), call('r1', { file_path: pathA }), result('r1', lines(40, 'a')), call('r2', { file_path: pathB }), result('r2', lines(40, 'b'))];

  it('should mark the calls whose parameters it rewrote, and keep the latest state of each of the two files', async () => {
    const { newHistory } = applied((await run({ passes: [cutPaths, stale] }, history)).outcome);
    expect(newHistory[1]).toMatchObject({
      blocks: [{ parameters: { file_path: '/' } }],
      metadata: { providerMetadata: { ctx: { parametersRewritten: ['r1'] } } },
    });
    expect(resultOf(newHistory[2])).toBe(lines(40, 'a'));
    expect(resultOf(newHistory[4])).toBe(lines(40, 'b'));
  });

  it('should leave its own output as it is when optimized again (a random case found in CI)', async () => {
    const strategy = createSmartPassesStrategy({ trigger: 'continuous', passes: [stale, cutPaths] });
    const config: DensityConfig = { readWritePruning: true, fileDedupe: true, recencyPruning: false, recencyRetention: 3, workspaceRoot: '/repo' };
    const input = parseHistory(history);
    const first = strategy.optimize?.(input, config);
    expect(first === undefined || isEmptyDensityResult(first)).toBe(false);
    const service = new HistoryService({ tokenizer: wordTokenizer(), history: input });
    await service.applyDensityResult(first as NonNullable<typeof first>, strategy.name);
    const again = strategy.optimize?.(service.getRawHistory(), config);
    expect(again === undefined ? true : isEmptyDensityResult(again)).toBe(true);
  });
});

describe('FR-SM-003 pass-based configuration', () => {
  it('should run multiple passes sequentially, each on the output of the one before', async () => {
    const history = readSession(4);
    const settings: SmartPassesSettingsInput = {
      passes: [
        individual('cut', { toolResults: { operation: 'truncate', params: { truncate: { maxLines: 10 } } } }),
        individual('drop-oldest', { toolResults: 'suppress' }, { selection: { type: 'custom', from: 0, to: 3 } }),
      ],
    };
    const { newHistory, metadata } = applied((await run(settings, history, { contextLimit: 10 })).outcome);
    expect(resultOf(newHistory[2])).toBe(SUPPRESSED_CONTENT_MARKER);
    expect(resultOf(newHistory[4])).toMatch(/^file 2 line 1\n[^]*⟨ \.\.\. truncated 30 lines ⟩$/);
    expect(metadata.counts).toMatchObject({ passesRun: 2, 'cut.toolResultsTruncated': 4, 'drop-oldest.toolResultsSuppressed': 1 });
  });

  it('should run the lossless prelude first, and reject losslessPrelude.enabled without one, saying how to pass it', async () => {
    const history = readSession(3);
    const prelude: CompressionStrategy = {
      specificationVersion: 'v1',
      name: 'fake-lossless',
      requiresLLM: false,
      trigger: { mode: 'continuous', defaultThreshold: 0.85 },
      settings: { deduplicateFileReads: true },
      compress: (context) =>
        Promise.resolve({
          type: 'applied',
          newHistory: context.history.map((entry, index) => (index === 2 ? result('c1', '[same as entry 4]') : entry)),
          metadata: { originalMessageCount: 0, compressedMessageCount: 0, strategyUsed: 'fake-lossless', llmCallMade: false },
        }),
    };
    const settings: SmartPassesSettingsInput = { losslessPrelude: { enabled: true }, passes: [individual('cut', { toolResults: 'truncate' })] };
    const outcome = applied(await createSmartPassesStrategy(settings, { prelude }).compress(contextFor(history)));
    expect(resultOf(outcome.newHistory[2])).toBe('[same as entry 4]');
    expect(outcome.metadata.counts?.['preludeTokensSaved']).toBeGreaterThan(0);
    expect(() => createSmartPassesStrategy(settings)).toThrow(/losslessPrelude\.enabled: .*createSmartPassesStrategy\(settings, \{ prelude: createLosslessStrategy/);
    expect(() => createSmartPassesStrategy({ ...settings, losslessPrelude: { enabled: true, operations: { deduplicateFileReads: false } } }, { prelude })).toThrow(
      /Expected the prelude fake-lossless to have deduplicateFileReads: false, found true/,
    );
  });

  it('should reject a pass whose mode does not match its config, and duplicate pass ids', () => {
    expect(() => createSmartPassesStrategy({ passes: [{ ...individual('a', {}), mode: 'batch' }] })).toThrow(/passes\[0\]\.batchConfig: Expected batchConfig for a pass with mode "batch"/);
    expect(() => createSmartPassesStrategy({ passes: [individual('a', {}), individual('a', {})] })).toThrow(/Expected unique pass ids, found "a" twice/);
    expect(() => createSmartPassesStrategy({ passes: [individual('Not Kebab', {})] })).toThrow(/kebab-case/);
  });

  it('should give each default pass a purpose, and the defaults should keep user text while cutting a long session', async () => {
    const strategy = createSmartPassesStrategy();
    expect(strategy.settings?.passes.map((pass) => [pass.id, pass.execution.type])).toEqual([
      ['truncate-old-tool-results', 'always'],
      ['suppress-very-old-tool-results', 'always'],
    ]);
    // Mechanical defaults: the strategy works without a model and says so.
    expect(strategy.requiresLLM).toBe(false);
    expect(strategy.settings?.passes.every((pass) => pass.description !== undefined && pass.name !== '')).toBe(true);
    const history = readSession(12);
    const context = contextFor(history);
    const outcome = applied(await strategy.compress(context));
    expect(outcome.newHistory[0]).toBe(context.history[0]);
    expect(outcome.metadata.counts?.['truncate-old-tool-results.toolResultsTruncated']).toBeGreaterThan(0);
  });
});

describe('FR-SM-004 batch mode', () => {
  const batch = (config: NonNullable<PassConfigInput['batchConfig']>, extra: Partial<PassConfigInput> = {}): SmartPassesSettingsInput => ({
    passes: [{ id: 'fold', name: 'Fold', selection: { type: 'preserve_recent', keepRecentCount: 3 }, mode: 'batch', batchConfig: config, execution: { type: 'always' }, ...extra }],
  });

  it('should summarize the selected entries, minus keepFirst and keepLast, into a single summary message like native', async () => {
    let history: readonly HistoryEntry[] = readSession(5);
    const summarizer = new MockSummarizer('The agent read five files.');
    const { context, outcome } = await run(batch({ operation: 'summarize', summarizationConfig: { keepFirst: 1, keepLast: 2 } }), history, { summarizer });
    const { newHistory, metadata } = applied(outcome);
    history = context.history;
    // Selected: entries 0–8 (the newest 3 preserved); keepFirst 1 and keepLast 2 leave 1–6 to summarize.
    expect(summarizer.calls[0]?.entries).toEqual(history.slice(1, 7));
    expect(newHistory).toHaveLength(history.length - 6 + 1);
    expect(newHistory[0]).toBe(history[0]);
    expect(newHistory[1]?.blocks[0]).toMatchObject({ type: 'text', text: expect.stringContaining('The agent read five files.') as string });
    expect(getEntryGenerator(newHistory[1] as HistoryEntry)).toBe('smart-passes');
    expect(newHistory.slice(2)).toEqual(history.slice(7));
    expect(metadata.counts).toMatchObject({ 'fold.summarized': 6 });
    expect(findToolPairingProblems(newHistory)).toEqual([]);
  });

  it('should send the custom prompt, and use the summarizer of the apiProfile', async () => {
    const profile = new MockSummarizer('Profiled summary.');
    const settings = batch({ operation: 'summarize', summarizationConfig: { keepFirst: 1, keepLast: 0, customPrompt: 'List the files read.', apiProfile: 'cheap' } });
    const context = contextFor(readSession(5), { summarizer: new MockSummarizer() });
    applied(await createSmartPassesStrategy(settings, { summarizers: { cheap: profile } }).compress(context));
    expect(profile.calls[0]?.instructions).toMatch(/^List the files read\./);
    expect(() => createSmartPassesStrategy(settings)).toThrow(/Expected a summarizer for the profile "cheap", found none/);
  });

  it('should cut only at pair-safe points and never summarize into the open tool loop', async () => {
    // Ends in a tool loop: the selection ends inside it (between a call and its result).
    const history = [...readSession(3).slice(0, -1), call('c9'), result('c9', lines(40))];
    const summarizer = new MockSummarizer('Summary.');
    const { outcome } = await run(batch({ operation: 'summarize' }, { selection: { type: 'custom', from: 0, to: -1 } }), history, { summarizer });
    const { newHistory } = applied(outcome);
    expect(newHistory.slice(-2)).toEqual(history.slice(-2));
    // keepFirst defaults to 1: the user's task stays before the summary.
    expect(newHistory[0]).toEqual(history[0]);
    expect(getEntryGenerator(newHistory[1] as HistoryEntry)).toBe('smart-passes');
    expect(findToolPairingProblems(newHistory)).toEqual([]);
  });

  it('should write the mechanical summary with a fallback warning when there is no summarizer', async () => {
    const { outcome } = await run(batch({ operation: 'summarize', summarizationConfig: { keepFirst: 1, keepLast: 0 } }), readSession(5));
    const { newHistory, warnings } = applied(outcome);
    expect((newHistory[1]?.blocks[0] as { text: string }).text).toMatch(/^\[Previous conversation summary \(mechanical/);
    expect(warnings?.some((warning) => warning.type === 'fallback' && warning.message.includes('no summarizer was given'))).toBe(true);
  });

  it('should do nothing with operation keep', async () => {
    const { outcome } = await run(batch({ operation: 'keep' }), readSession(5), { summarizer: new MockSummarizer() });
    expect(outcome).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
  });
});

describe('FR-SM-005 individual mode', () => {
  it('should apply the operations of an override to its message index only', async () => {
    const history = readSession(3);
    const pass = individual('cut', { toolResults: 'truncate' });
    const settings: SmartPassesSettingsInput = {
      passes: [{ ...pass, individualConfig: { defaults: { toolResults: 'truncate' }, overrides: [{ messageIndex: 4, operations: { toolResults: 'suppress' } }] } }],
    };
    const { newHistory } = applied((await run(settings, history)).outcome);
    expect(resultOf(newHistory[2])).toMatch(/truncated 35 lines/);
    expect(resultOf(newHistory[4])).toBe(SUPPRESSED_CONTENT_MARKER);
    expect(resultOf(newHistory[6])).toMatch(/truncated 35 lines/);
  });

  it('should process each message on its own and keep every message in order, untouched ones as the same objects', async () => {
    const history = readSession(3);
    const { context, outcome } = await run({ passes: [individual('cut', { toolResults: 'truncate' })] }, history);
    const { newHistory } = applied(outcome);
    expect(newHistory.map((entry) => entry.speaker)).toEqual(history.map((entry) => entry.speaker));
    for (const index of [0, 1, 3, 5, 7]) expect(newHistory[index]).toBe(context.history[index]);
  });

  it('should summarize in parallel where safe: at most 4 calls at once, results in order', async () => {
    let running = 0;
    let most = 0;
    const summarizer = {
      specificationVersion: 'v1' as const,
      name: 'slow',
      summarize: async (request: SummarizeRequest) => {
        running++;
        most = Math.max(most, running);
        const text = (request.entries[0]?.blocks[0] as { text: string }).text;
        await new Promise((resolve) => setTimeout(resolve, text.includes('file 1 ') ? 20 : 1));
        running--;
        return { text: `about ${text.split(' ')[1] ?? ''}` };
      },
    };
    const { newHistory } = applied((await run({ passes: [individual('sum', { toolResults: 'summarize' })] }, readSession(8), { summarizer })).outcome);
    expect(most).toBe(4);
    expect(Array.from({ length: 8 }, (_, turn) => resultOf(newHistory[2 + turn * 2]))).toEqual(Array.from({ length: 8 }, (_, turn) => `⟨ Summarized ⟩\nabout ${turn + 1}`));
  });
});

describe('FR-SM-006 execution conditions', () => {
  const conditional = (tokenThreshold: number) =>
    individual('drop', { toolResults: 'suppress' }, { execution: { type: 'conditional', condition: { tokenThreshold } } });

  it('should run always passes sequentially and skip a conditional pass while the request is under its threshold, reporting the skip', async () => {
    const history = readSession(3);
    const { outcome } = await run({ passes: [individual('cut', { toolResults: 'truncate' }), conditional(100_000)] }, history, { contextLimit: 10 });
    const { metadata } = applied(outcome);
    expect(metadata.counts).toMatchObject({ passesRun: 1, passesSkipped: 1, 'drop.skipped': 1 });
  });

  it('should run a conditional pass when the request (history and overhead) is over its threshold', async () => {
    const history = readSession(3);
    const { context, outcome } = await run({ passes: [conditional(10)] }, history);
    expect(context.tokenCounter.countEntries(history)).toBeGreaterThan(10);
    expect(applied(outcome).metadata.counts).toMatchObject({ passesRun: 1, passesSkipped: 0, 'drop.toolResultsSuppressed': 3 });
  });

  it('should exit early once the target is reached, in the configured order', async () => {
    const history = readSession(3);
    const settings: SmartPassesSettingsInput = { passes: [individual('cut', { toolResults: 'truncate' }), individual('drop', { toolResults: 'suppress' })] };
    // A window where truncating alone reaches the target: 0.85 × 0.6 × 600 = 306 tokens of history.
    const { context, outcome } = await run(settings, history, { contextLimit: 600 });
    const { newHistory, metadata } = applied(outcome);
    expect(context.tokenCounter.countEntries(newHistory)).toBeLessThanOrEqual(306);
    expect(metadata.counts).toMatchObject({ passesRun: 1, stoppedEarly: 1, passesNotRun: 1 });
    expect(resultOf(newHistory[2])).toMatch(/truncated/);
  });
});

describe('FR-SM-008 smart provider implementation', () => {
  it('should track cost: the summarizer usage summed into counts, and llmCallMade', async () => {
    const summarizer = new MockSummarizer({ text: 'short', usage: { inputTokens: 170, outputTokens: 4 } });
    const { outcome } = await run({ passes: [individual('sum', { toolResults: 'summarize' })] }, readSession(3), { summarizer });
    expect(applied(outcome).metadata).toMatchObject({ llmCallMade: true, counts: { summarizerCalls: 3, summarizerInputTokens: 510, summarizerOutputTokens: 12 } });
  });

  it('should say why it did nothing: empty-history, already-under-target, aborted', async () => {
    const strategy = createSmartPassesStrategy();
    expect(await strategy.compress(contextFor([], { contextLimit: 100 }))).toMatchObject({ type: 'no-op', reason: 'empty-history' });
    expect(await strategy.compress(contextFor(readSession(2), { contextLimit: 100_000 }))).toMatchObject({ type: 'no-op', reason: 'already-under-target' });
    const controller = new AbortController();
    controller.abort();
    expect(await strategy.compress(contextFor(readSession(2), { signal: controller.signal }))).toMatchObject({ type: 'no-op', reason: 'aborted' });
  });

  it('should declare multiPass, and llmSummarization and requiresLLM only when a pass can summarize', () => {
    const summarizing = createSmartPassesStrategy({ passes: [...defaultPasses, summarizeOldToolResultsPass] });
    expect(summarizing.capabilities).toMatchObject({ multiPass: true, llmSummarization: true });
    expect(summarizing.requiresLLM).toBe(true);
    const mechanical = createSmartPassesStrategy({ passes: [individual('cut', { toolResults: 'truncate' })] });
    expect(mechanical.capabilities).toMatchObject({ multiPass: true, llmSummarization: false });
    expect(mechanical.requiresLLM).toBe(false);
  });

  it('continuous: optimize() should run the always keep/suppress/truncate passes, leave summaries to compress(), and be idempotent', async () => {
    const history = readSession(4);
    const strategy = createSmartPassesStrategy({
      trigger: 'continuous',
      passes: [
        individual('cut', { toolResults: 'truncate' }, { selection: { type: 'preserve_recent', keepRecentCount: 3 } }),
        individual('sum', { toolResults: 'summarize' }, { selection: { type: 'custom' } }),
      ],
    });
    expect(strategy.trigger.mode).toBe('continuous');
    const optimized = strategy.optimize?.(history, densityConfig);
    if (optimized === undefined) throw new Error('expected optimize()');
    expect([...optimized.replacements.keys()]).toEqual([2, 4, 6]);
    expect(optimized.metadata).toMatchObject({ 'cut.toolResultsTruncated': 3 });
    expect(optimized.metadata['cut.charactersSaved']).toBeGreaterThan(0);
    const service = new HistoryService({ tokenizer: wordTokenizer(), history });
    await service.applyDensityResult(optimized, strategy.name);
    const output = service.getRawHistory();
    expect(resultOf(output[8])).toBe(resultOf(history[8]));
    expect(isEmptyDensityResult(strategy.optimize?.(output, densityConfig) ?? optimized)).toBe(true);
    expect('optimize' in createSmartPassesStrategy()).toBe(false);
  });
});

describe('foldFileStates (our extension)', () => {
  const config = { readWritePruning: true, fileDedupe: true, recencyPruning: false, recencyRetention: 3, workspaceRoot: '/repo' };
  const numbered = (count: number) => Array.from({ length: count }, (_, index) => `${String(index + 1).padStart(6)}→const value${index} = ${index};`).join('\n');

  it('should fold each file\'s latest read with the edits after it, keep pairs, and do nothing more the next time', () => {
    const history = [
      human('rename value3'),
      call('r1', { file_path: '/repo/a.ts' }),
      result('r1', numbered(40)),
      call('e1', { file_path: '/repo/a.ts', old_string: 'const value3 = 3;', new_string: 'const renamedValue = 3; // was value3' }, 'Edit'),
      result('e1', 'The file /repo/a.ts has been updated.', { toolName: 'Edit' }),
      aiText('Renamed.'),
    ];
    const strategy = createSmartPassesStrategy({ trigger: 'continuous', foldFileStates: true, passes: [individual('keep', {})] });
    const optimize = (input: readonly HistoryEntry[]) => {
      if (strategy.optimize === undefined) throw new Error('a continuous smart-passes strategy implements optimize()');
      return strategy.optimize(input, config);
    };
    const optimized = optimize(history);
    expect(optimized.metadata).toMatchObject({ 'fileStates.readsFolded': 1, 'fileStates.editsFolded': 1 });
    const after = applyDensityResultToHistory(history, optimized);
    expect(findToolPairingProblems(after)).toEqual([]);
    const read = after[2]?.blocks[0];
    expect(read?.type === 'tool_response' && typeof read.result === 'string' && read.result.includes('const renamedValue = 3; // was value3\nconst value4 = 4;')).toBe(true);
    expect(isEmptyDensityResult(optimize(after))).toBe(true);
  });
});
