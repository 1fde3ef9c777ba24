import {
  InvalidStrategySettingsError,
  applyDensityResultToHistory,
  type CompressionStrategyFactory,
  type HistoryEntry,
} from '@ctx/core';
import { createToolSemanticsRegistry, emptySemantics } from '@ctx/strategy-utils';
import { describe, expect, it } from 'vitest';
import type { HighDensitySettings, HighDensitySettingsInput } from './high-density-settings.js';
import { createHighDensityStrategy } from './high-density-strategy.js';
import {
  aiText,
  bash,
  bashTurns,
  callIds,
  defaultConfig,
  edit,
  history,
  human,
  inclusionText,
  optimize,
  optimizeAndApply,
  read,
  responsesById,
  resultText,
  turn,
  write,
} from './test-support/history-fixtures.js';

// Compile-time check: the factory fits the contract's factory type, so registries and plugin loaders accept it.
const factory: CompressionStrategyFactory<HighDensitySettingsInput, HighDensitySettings> = createHighDensityStrategy;

describe('createHighDensityStrategy', () => {
  it('BR-THRESH-003: should be a continuous strategy with default threshold 0.85 that needs no LLM', () => {
    const strategy = factory();
    expect(strategy.name).toBe('high-density');
    expect(strategy.trigger).toEqual({ mode: 'continuous', defaultThreshold: 0.85 });
    expect(strategy.requiresLLM).toBe(false);
    expect(typeof strategy.optimize).toBe('function');
  });

  it('should fill in spec 000 defaults for its settings', () => {
    expect(createHighDensityStrategy().settings).toEqual({
      readWritePruning: true,
      fileDedupe: true,
      recencyPruning: false,
      recencyRetention: 3,
      recencyScope: 'per-tool',
      foldEdits: false,
      preserveRecentTurns: 2,
    });
  });

  it('should reject invalid settings at creation', () => {
    expect(() => createHighDensityStrategy({ recencyRetention: 0 })).toThrow(InvalidStrategySettingsError);
    expect(() => createHighDensityStrategy({ recencyRetention: 1.5 })).toThrow(InvalidStrategySettingsError);
    expect(() => createHighDensityStrategy({ preserveRecentTurns: -1 })).toThrow(InvalidStrategySettingsError);
    expect(() => createHighDensityStrategy({ unknown: true } as HighDensitySettingsInput)).toThrow(
      InvalidStrategySettingsError,
    );
    expect(() => createHighDensityStrategy({ registry: {} } as unknown as HighDensitySettingsInput)).toThrow(
      InvalidStrategySettingsError,
    );
  });

  it('should read the toggles from the DensityConfig it is given, not from its own settings', () => {
    const entries = history(human('go'), turn(read('r1', '/repo/a.ts')), turn(write('w1', '/repo/a.ts')));
    const strategy = createHighDensityStrategy({ readWritePruning: false });
    expect(strategy.optimize?.(entries, defaultConfig).metadata.readWritePairsPruned).toBe(1);
  });

  it('EC-001: should return an empty result for an empty history, and compress should leave it empty', async () => {
    const strategy = createHighDensityStrategy();
    const result = strategy.optimize?.([], defaultConfig);
    expect(result).toEqual({ removals: [], replacements: new Map(), metadata: {} });
    const compressed = await strategy.compress({
      history: [],
      system: [],
      tools: [],
      tokenCounter: { countEntry: () => 0, countEntries: () => 0, countText: () => 0 } as never,
      budget: { contextLimit: 100, threshold: 0.85, targetTokens: 51, overheadTokens: 0 },
    });
    expect(compressed).toEqual({ type: 'no-op', reason: 'empty-history' });
  });

  it('EC-002: should return an empty result for a history of one entry', () => {
    for (const entry of [human(inclusionText('/repo/a.ts')), aiText('hi')]) {
      const result = optimize(history(entry), { recencyPruning: true, recencyRetention: 1 });
      expect(result.removals).toEqual([]);
      expect(result.replacements.size).toBe(0);
    }
  });

  it('EC-004: should find nothing in a history of AI messages only', () => {
    const entries = history(aiText('one'), aiText('two'), aiText('three'));
    const result = optimize(entries, { recencyPruning: true, recencyRetention: 1 });
    expect(result.removals).toEqual([]);
    expect(result.replacements.size).toBe(0);
  });

  it('EC-042: should return an empty result with zero counts when nothing is prunable', () => {
    const entries = history(human('go'), turn(read('r1', '/repo/a.ts')), turn(bash('b1', 'ls')));
    const result = optimize(entries);
    expect(result.removals).toEqual([]);
    expect(result.replacements.size).toBe(0);
    expect(result.metadata).toEqual({ readWritePairsPruned: 0, fileDeduplicationsPruned: 0, recencyPruned: 0 });
  });

  it('ERR-002: should let an error thrown during optimize propagate', () => {
    const registry = createToolSemanticsRegistry();
    registry.register('Explode', () => {
      throw new Error('classifier failed');
    });
    const entries = history(human('go'), turn(bash('b1', 'ls')), {
      speaker: 'ai',
      blocks: [{ type: 'tool_call', id: 'x1', name: 'Explode', parameters: {} }],
    });
    expect(() => createHighDensityStrategy({ registry }).optimize?.(entries, defaultConfig)).toThrow('classifier failed');
  });

  it('should classify custom tools with a registry given in the settings', () => {
    const registry = createToolSemanticsRegistry();
    registry.register('cat_file', (call, context) => {
      const parameters = call.parameters as { readonly target?: string };
      if (typeof parameters.target !== 'string') return undefined;
      return { ...emptySemantics('read'), reads: [{ path: context.resolvePath(parameters.target), partial: false }] };
    });
    const entries = history(
      human('go'),
      turn({
        call: { type: 'tool_call', id: 'c1', name: 'cat_file', parameters: { target: 'a.ts' } },
        response: { type: 'tool_response', callId: 'c1', toolName: 'cat_file', result: 'content' },
      }),
      turn(edit('e1', '/repo/a.ts')),
    );
    expect(optimize(entries, {}, { registry }).metadata.readWritePairsPruned).toBe(1);
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(0);
  });

  it('BR-CONFLICT-001: should never put an index in both removals and replacements', () => {
    const entries = history(
      human(inclusionText('/repo/a.ts')),
      turn(read('r1', '/repo/a.ts'), bash('b1', 'ls')),
      turn(read('r2', '/repo/b.ts')),
      human(inclusionText('/repo/a.ts')),
      turn(edit('e1', '/repo/a.ts'), edit('e2', '/repo/b.ts')),
      ...bashTurns(4, { idPrefix: 'x' }),
    );
    const result = optimize(entries, { recencyPruning: true, recencyRetention: 1 });
    expect(result.removals.filter((index) => result.replacements.has(index))).toEqual([]);
    expect(() => applyDensityResultToHistory(entries, result)).not.toThrow();
  });

  it('BR-CONFLICT-002: should run read→write pruning, then dedup, then recency, deterministically', () => {
    const entries = history(
      human(inclusionText('/repo/a.ts')),
      turn(read('r1', '/repo/a.ts')),
      turn(read('r2', '/repo/b.ts')),
      human(inclusionText('/repo/a.ts')),
      turn(edit('e1', '/repo/a.ts')),
    );
    const config = { recencyPruning: true, recencyRetention: 1 };
    const first = optimize(entries, config);
    const second = optimize(entries, config);
    expect(first).toEqual(second);
    expect(first.metadata).toEqual({ readWritePairsPruned: 1, fileDeduplicationsPruned: 1, recencyPruned: 0 });
  });

  it('BR-CONFLICT-003: should let recency pruning see the history after read→write pruning', () => {
    // The newest Read (r2) is stale and removed, so r1 becomes the newest Read and stays.
    const entries = history(
      human('go'),
      turn(read('r1', '/repo/b.ts')),
      turn(read('r2', '/repo/a.ts')),
      turn(edit('e1', '/repo/a.ts')),
    );
    const next = optimizeAndApply(entries, { recencyPruning: true, recencyRetention: 1 });
    expect(callIds(next)).toEqual(['r1', 'e1']);
    expect(responsesById(next).get('r1')?.result).toBe(responsesById(entries).get('r1')?.result);
  });

  it('BR-CONFLICT-004: should let a removal win over a dedup edit of the same entry', () => {
    // Entries 1-2 are removed by pruning; the human entry 3 is only edited by dedup; nothing is both.
    const entries = history(
      human(inclusionText('/repo/a.ts')),
      turn(read('r1', '/repo/a.ts')),
      human(inclusionText('/repo/a.ts')),
      turn(write('w1', '/repo/a.ts')),
    );
    const result = optimize(entries);
    expect(result.removals).toEqual([1, 2]);
    expect([...result.replacements.keys()]).toEqual([0]);
  });

  it('BR-CONFLICT-005: should report counts that match what was actually done', () => {
    const entries = history(
      human(inclusionText('/repo/a.ts')),
      turn(read('r1', '/repo/a.ts'), read('r2', '/repo/a.ts')),
      human(inclusionText('/repo/a.ts')),
      turn(edit('e1', '/repo/a.ts')),
      ...bashTurns(5, { idPrefix: 'x' }),
    );
    const config = { recencyPruning: true, recencyRetention: 2 };
    const result = optimize(entries, config);
    const next = optimizeAndApply(entries, config);
    const removedCalls = callIds(entries).length - callIds(next).length;
    const pointers = [...responsesById(next).values()].filter((block) =>
      resultText(block).startsWith('[Result pruned'),
    ).length;
    expect(result.metadata).toEqual({ readWritePairsPruned: removedCalls, fileDeduplicationsPruned: 1, recencyPruned: pointers });
    expect(result.metadata).toEqual({ readWritePairsPruned: 2, fileDeduplicationsPruned: 1, recencyPruned: 3 });
  });

  it('EC-040: should delete an entry that both read→write pruning and recency pruning would touch', () => {
    const entries = history(
      human('go'),
      turn(read('r1', '/repo/a.ts')),
      turn(read('r2', '/repo/b.ts')),
      turn(read('r3', '/repo/c.ts')),
      turn(write('w1', '/repo/a.ts')),
    );
    const result = optimize(entries, { recencyPruning: true, recencyRetention: 1 });
    expect(result.removals).toEqual([1, 2]);
    expect(result.metadata).toEqual({ readWritePairsPruned: 1, fileDeduplicationsPruned: 0, recencyPruned: 1 });
  });

  it('EC-041: should edit a human message by dedup and a tool entry by recency in the same pass', () => {
    const entries = history(
      human(inclusionText('/repo/a.ts')),
      turn(bash('b1', 'ls')),
      human(inclusionText('/repo/a.ts')),
      turn(bash('b2', 'ls -la')),
    );
    const result = optimize(entries, { recencyPruning: true, recencyRetention: 1 });
    expect([...result.replacements.keys()]).toEqual([0, 2]);
    expect(result.replacements.get(0)?.speaker).toBe('human');
    expect(result.replacements.get(2)?.speaker).toBe('tool');
  });

  it('should never mutate the history it is given', () => {
    const entries = history(
      human(inclusionText('/repo/a.ts')),
      turn(read('r1', '/repo/a.ts')),
      human(inclusionText('/repo/a.ts')),
      turn(edit('e1', '/repo/a.ts')),
    );
    const copy: unknown = structuredClone(entries);
    optimize(entries, { recencyPruning: true, recencyRetention: 1 }, { foldEdits: true });
    expect(entries).toEqual(copy);
  });

  it('should give after an appended turn the same result as a fresh strategy (its memo is invisible)', () => {
    const strategy = createHighDensityStrategy();
    const start: HistoryEntry[] = [human('go'), ...turn(read('r1', '/repo/a.ts')), ...turn(bash('b1', 'ls'))];
    const config = { ...defaultConfig, recencyPruning: true, recencyRetention: 1 };
    const first = history(start);
    strategy.optimize?.(first, config);
    // The same frozen entries plus a new turn: the agent loop's case, where the memo resumes.
    const grown = [...first, ...history(turn(edit('e1', '/repo/a.ts')), turn(bash('b2', 'ls')))];
    expect(strategy.optimize?.(grown, config)).toEqual(optimize(grown, config));
    // A different history (not an extension) is not confused with the memo either.
    const other = history(human('go'), turn(read('r9', '/repo/z.ts')));
    expect(strategy.optimize?.(other, config)).toEqual(optimize(other, config));
  });

  it('should not be fooled by a caller that changes its own array between two calls', () => {
    const strategy = createHighDensityStrategy();
    const config = { ...defaultConfig, recencyPruning: true, recencyRetention: 1 };
    // A plain array the caller keeps (not a history service's frozen snapshot) and then rewrites in place.
    const entries: HistoryEntry[] = [...history(human('go'), turn(read('r1', '/repo/a.ts')), turn(bash('b1', 'ls')))];
    strategy.optimize?.(entries, config);
    const [call, answer] = history(turn(read('r2', '/repo/b.ts')));
    entries[1] = call as HistoryEntry;
    entries[2] = answer as HistoryEntry;
    entries.push(...history(turn(edit('e1', '/repo/b.ts'))));

    expect(strategy.optimize?.(entries, config)).toEqual(optimize(entries, config));
  });
});
