// Never overflow: the before-send either makes the request fit or says it cannot (issue 13, spec 000 §2 emergency
// path, spec 002 stress cases).
import { describe, expect, it } from 'vitest';
import { ContextWindowExceededError } from '../errors/context-window-exceeded-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { HistoryService, type HistoryServiceOptions } from '../history/history-service.js';
import { findToolPairingProblems } from '../history/tool-pairing.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import { ai, human, toolCall, toolResult } from '../test-support/entries.js';
import { strategyNamed } from '../test-support/strategy-stub.js';
import { keepNewest, words } from '../test-support/stub-strategies.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import { createCompressionOrchestrator } from './compression-orchestrator.js';
import { formatTurnReport } from './format-turn-report.js';
import type { TurnReport } from './turn-report.js';

/** A strategy that never manages to compress anything, and counts how often it is asked. */
function helpless(): CompressionStrategy & { calls: number } {
  const strategy = {
    ...strategyNamed('helpless'),
    calls: 0,
    compress: () => {
      strategy.calls += 1;
      return Promise.resolve({ type: 'no-op' as const, reason: 'too-few-compressible' as const });
    },
  };
  return strategy;
}

function setup(
  strategies: CompressionStrategy[],
  entries: HistoryEntry[],
  extra: Partial<Pick<HistoryServiceOptions, 'system'>> & { contextLimit?: number; reserved?: number } = {},
) {
  const history = new HistoryService({
    tokenizer: createWordTokenizer(),
    history: entries,
    ...(extra.system === undefined ? {} : { system: extra.system }),
  });
  const reports: TurnReport[] = [];
  const orchestrator = createCompressionOrchestrator({
    history,
    strategies,
    contextLimit: extra.contextLimit ?? 1_000,
    calibration: false,
    settings: { 'compression.reservedOutputTokens': extra.reserved ?? 0 },
    onReport: (report) => reports.push(report),
  });
  return { history, orchestrator, reports };
}

const logLines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index} of the build log`).join('\n');

function resultText(entry: HistoryEntry | undefined): string {
  const block = entry?.blocks.find((candidate) => candidate.type === 'tool_response');
  return block?.type === 'tool_response' && typeof block.result === 'string' ? block.result : '';
}

describe('ensureCompressionBeforeSend (never overflow)', () => {
  it('should throw ContextWindowExceededError instead of returning when the request cannot be made to fit', async () => {
    const strategy = helpless();
    const { orchestrator, reports } = setup([strategy], [human(words(700)), ai(words(400))]);
    const error: unknown = await orchestrator.ensureCompressionBeforeSend().catch((caught: unknown) => caught);
    expect(ContextWindowExceededError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'cannot-shrink-further', projectedTokens: 1_106, availableTokens: 1_000 });
    expect((error as ContextWindowExceededError).message).toContain('after helpless, cut-oversized-tool-results');
    // The failed turn is reported too, and says it does not fit.
    expect(reports.at(-1)?.request.fits).toBe(false);
    expect((error as ContextWindowExceededError).report?.request.fits).toBe(false);
  });

  it('should not run the strategies again when asked again with nothing changed since they could not help', async () => {
    const strategy = helpless();
    const { history, orchestrator } = setup([strategy], [human(words(700)), ai(words(400))]);
    for (let call = 0; call < 3; call++) await expect(orchestrator.ensureCompressionBeforeSend()).rejects.toThrow(ContextWindowExceededError);
    expect(strategy.calls).toBe(1);
    // New content: the strategies may see something they can use.
    history.add(human('one more thing'));
    await expect(orchestrator.ensureCompressionBeforeSend()).rejects.toThrow(ContextWindowExceededError);
    expect(strategy.calls).toBe(2);
  });

  it.each([1, 2, 5])(
    'should make a newest tool output of %i× the window fit by cutting it to its beginning and end, pairs intact',
    async (multiple) => {
      // Five words per line: 1,000 × multiple tokens of output in a 1,000-token window.
      const giant = logLines(200 * multiple);
      const strategy = helpless();
      const { history, orchestrator } = setup([strategy], [
        human('why does the build fail?'),
        toolCall('log', { command: 'cat build.log' }, 'Bash'),
        toolResult('log', giant, 'Bash'),
      ]);
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.request.fits).toBe(true);
      expect(report.emergency).toBe(true);
      expect(formatTurnReport(report)).toMatch(/it did not fit, so the emergency path ran/);
      expect(report.passes.at(-1)).toMatchObject({ pass: 'emergency', strategy: 'cut-oversized-tool-results', outcome: 'applied' });
      expect(report.passes.at(-1)?.warnings[0]?.message).toMatch(/cut 1 tool result to its beginning and end.*Bash \(log\)/);
      const raw = history.getRawHistory();
      expect(findToolPairingProblems(raw)).toEqual([]);
      const kept = resultText(raw[2]);
      expect(kept.startsWith('line 0 of the build log')).toBe(true);
      expect(kept.endsWith(`line ${200 * multiple - 1} of the build log`)).toBe(true);
      expect(kept).toContain('were cut by ctx to fit the context window');
      // Aims at the compression target, so the next turn has room.
      expect(history.getTotalTokens()).toBeLessThanOrEqual(510);
    },
  );

  it('should run the strategies before cutting, and cut only when they leave the request over the window', async () => {
    const strategy = keepNewest('keep-newest', 3);
    const { history, orchestrator } = setup([strategy], [
      human(words(600)),
      human('and now?'),
      toolCall('log', { command: 'cat build.log' }, 'Bash'),
      toolResult('log', logLines(100), 'Bash'),
    ]);
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.passes.map((pass) => pass.pass)).toEqual(['compression']);
    expect(resultText(history.getRawHistory()[2])).toBe(logLines(100));
  });

  it("overhead-too-large: should throw at once, without running any strategy, when system and tools alone do not fit", async () => {
    const strategy = helpless();
    const { orchestrator } = setup([strategy], [human('hello')], { system: [{ type: 'text', text: words(1_200) }] });
    for (let turn = 0; turn < 3; turn++) {
      const error: unknown = await orchestrator.ensureCompressionBeforeSend().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ reason: 'overhead-too-large', overheadTokens: 1_200 });
    }
    expect(strategy.calls).toBe(0);
  });

  it('TestStress_CompactionNoInfiniteLoop: should report a threshold the system prompt alone reaches once, and not compress every turn', async () => {
    const strategy = helpless();
    // 860 of 1,000 tokens are the system prompt: the request fits (under the 900-token absolute trigger too), but it
    // is always over the 850-token threshold.
    const { history, orchestrator } = setup([strategy], [human('hello')], { system: [{ type: 'text', text: words(860) }] });
    const first = await orchestrator.ensureCompressionBeforeSend();
    expect(first.warnings).toEqual([expect.objectContaining({ type: 'threshold-unreachable' })]);
    expect(first.warnings[0]?.message).toContain('alone take 860 tokens, over the threshold of 850');
    for (let turn = 0; turn < 5; turn++) {
      history.add(human('next'));
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.warnings).toEqual([]);
      expect(report.request.fits).toBe(true);
    }
    expect(strategy.calls).toBe(0);
  });

  it('should take the pending message into account, and name it when it alone does not fit', async () => {
    const { orchestrator } = setup([helpless()], [human('hello')]);
    const error: unknown = await orchestrator.ensureCompressionBeforeSend({ pendingTokens: 1_500 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: 'overhead-too-large' });
    expect((error as Error).message).toContain('system instructions, tool definitions and pending message alone need 1,500 tokens');
  });

  it('should keep the output tokens reserved: fitting means within the window minus them', async () => {
    const giant = logLines(300);
    const { orchestrator } = setup([helpless()], [human('go'), toolCall('x', { command: 'x' }, 'Bash'), toolResult('x', giant, 'Bash')], {
      reserved: 400,
    });
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.request.availableTokens).toBe(600);
    expect(report.request.calibratedTokens).toBeLessThanOrEqual(600);
  });
});

describe('enforceContextWindow', () => {
  it('should cut a giant tool output the strategies cannot shrink, then pass', async () => {
    const { orchestrator } = setup([helpless()], [
      human('read it'),
      toolCall('dump', { file_path: '/repo/dump.json' }),
      toolResult('dump', logLines(400)),
    ]);
    const report = await orchestrator.enforceContextWindow({ pendingTokens: 10 });
    expect(report.request).toMatchObject({ fits: true });
    expect(report.passes.some((pass) => pass.pass === 'emergency' && pass.outcome === 'applied')).toBe(true);
  });
});
