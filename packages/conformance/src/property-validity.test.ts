import {
  createEmptyDensityResult,
  findToolPairingProblems,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type DensityResult,
  type HistoryEntry,
} from '@ctx/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkPropertyValidity, defaultPropertyRuns, resolvePropertyRuns } from './property-validity.js';
import { randomHistory } from './random-history.js';
import { appliedResult, stubStrategy } from './test-support/stub-strategy.js';

const strategy = (overrides: Partial<CompressionStrategy>): CompressionStrategy => stubStrategy('property-test-strategy', overrides);
const applied = (context: CompressionContext, newHistory: readonly HistoryEntry[]): CompressionResult =>
  appliedResult(context, newHistory, 'property-test-strategy');

/** Drops every thinking block: fine for finished turns, rejected for the turn still in its tool loop. */
const dropAllThinking = (context: CompressionContext): Promise<CompressionResult> => {
  const newHistory = context.history
    .map((entry) => ({ ...entry, blocks: entry.blocks.filter((block) => block.type !== 'thinking') }))
    .filter((entry) => entry.blocks.length > 0);
  return Promise.resolve(applied(context, newHistory));
};

describe('checkPropertyValidity', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('should pass a strategy that never changes anything, over the requested number of runs', async () => {
    const report = await checkPropertyValidity({ strategy: strategy({}), runs: 30, seed: 1 });
    expect(report).toMatchObject({ strategy: 'property-test-strategy', passed: true, runs: 30, seed: 1 });
    expect(report.failure).toBeUndefined();
  });

  it('should find a strategy that drops the thinking of the turn still in its tool loop, shrunk and replayable', async () => {
    const report = await checkPropertyValidity({ strategy: strategy({ compress: dropAllThinking }), runs: 500, seed: 7 });
    expect(report.passed).toBe(false);
    const failure = report.failure!;
    expect(failure.message).toContain('tool-loop-thinking');
    expect(failure.message).toContain('Minimal counterexample');
    expect(failure.message).toContain(`seed: ${failure.seed}`);
    // Shrunk: a prompt, the call that opens the loop with its thinking, and its result.
    expect(failure.counterexample.split('\n').filter((line) => line.startsWith('  ['))).toHaveLength(3);
    const replay = await checkPropertyValidity({ strategy: strategy({ compress: dropAllThinking }), seed: failure.seed, path: failure.path });
    expect(replay.failure?.counterexample).toBe(failure.counterexample);
  });

  it('should find a density result that grows the token count', async () => {
    const padFirstHuman = (history: readonly HistoryEntry[]): DensityResult => {
      const index = history.findIndex((entry) => entry.speaker === 'human');
      if (index === -1) return createEmptyDensityResult();
      const entry = history[index]!;
      return { removals: [], replacements: new Map([[index, { ...entry, blocks: [...entry.blocks, { type: 'text', text: 'padding '.repeat(20) }] }]]), metadata: {} };
    };
    const report = await checkPropertyValidity({ strategy: strategy({ optimize: padFirstHuman }), runs: 20, seed: 3 });
    expect(report.failure?.message).toMatch(/optimize\(\) grew the history from \d+ to \d+ tokens/);
  });

  it('should report a malformed density result as the typed error applyDensityResult raises, not a crash', async () => {
    const report = await checkPropertyValidity({
      strategy: strategy({ optimize: () => ({ removals: null, replacements: new Map(), metadata: {} }) as unknown as DensityResult }),
      runs: 5,
      seed: 5,
    });
    expect(report.failure?.message).toContain('threw CompressionStrategyError');
    expect(report.failure?.message).toContain('expected removals to be an array');
  });

  it('should take its run count from CTX_PROPERTY_RUNS when not given, and reject a bad value', () => {
    vi.stubEnv('CTX_PROPERTY_RUNS', undefined);
    expect(resolvePropertyRuns()).toBe(defaultPropertyRuns);
    vi.stubEnv('CTX_PROPERTY_RUNS', '12');
    expect(resolvePropertyRuns()).toBe(12);
    expect(resolvePropertyRuns(3)).toBe(3);
    vi.stubEnv('CTX_PROPERTY_RUNS', 'many');
    expect(() => resolvePropertyRuns()).toThrow('Expected CTX_PROPERTY_RUNS to be an integer, got "many"');
  });
});

describe('randomHistory', () => {
  it('should generate pair-valid histories apart from a call cut off at the very end, with every feature the check needs', () => {
    const seen = { parallel: 0, thinking: 0, redacted: 0, inToolLoop: 0, unanswered: 0, interrupted: 0, huge: 0, blank: 0 };
    fc.assert(
      fc.property(randomHistory, (history) => {
        const problems = findToolPairingProblems(history);
        const last = history.at(-1)!;
        const endsWithCall = last.speaker === 'ai' && last.blocks.some((block) => block.type === 'tool_call');
        // Only the trailing unanswered call may be unpaired.
        expect(problems.every((problem) => problem.kind === 'unanswered-call')).toBe(true);
        if (problems.length > 0) expect(endsWithCall).toBe(true);
        const blocks = history.flatMap((entry) => entry.blocks);
        if (history.some((entry) => entry.blocks.filter((block) => block.type === 'tool_call').length > 1)) seen.parallel++;
        if (blocks.some((block) => block.type === 'thinking' && block.redacted !== true)) seen.thinking++;
        if (blocks.some((block) => block.type === 'thinking' && block.redacted === true)) seen.redacted++;
        if (last.speaker === 'tool') seen.inToolLoop++;
        if (endsWithCall) seen.unanswered++;
        if (blocks.some((block) => block.type === 'text' && block.text.startsWith('[Request interrupted by user'))) seen.interrupted++;
        if (blocks.some((block) => block.type === 'tool_response' && typeof block.result === 'string' && block.result.length >= 4_000)) seen.huge++;
        if (blocks.some((block) => block.type === 'text' && block.text.trim() === '')) seen.blank++;
      }),
      { numRuns: 300, seed: 11 },
    );
    for (const [feature, count] of Object.entries(seen)) expect(count, feature).toBeGreaterThan(10);
  });
});
