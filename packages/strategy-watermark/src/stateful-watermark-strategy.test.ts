import {
  HistoryService,
  createCompressionOrchestrator,
  findToolPairingProblems,
  isEmptyDensityResult,
  parseHistory,
  type DensityConfig,
  type DensityResult,
  type HistoryEntry,
} from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { createStatefulWatermarkStrategy } from './stateful-watermark-strategy.js';
import { createWatermarkStrategy } from './watermark-strategy.js';
import { ai, aiText, call, contextFor, human, response, shape, texts, tool, toolTurn, wordTokenizer } from './test-support/entries.js';

const density: DensityConfig = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: false,
  recencyRetention: 3,
  workspaceRoot: '/repo',
};
const deactivate = 'mcp__nisaba__deactivate_augments';
const noEdits: DensityResult = { removals: [-1], replacements: new Map(), metadata: {} };

// Spec 003 "Execution Flow Example", step 6: the request after the deactivation.
const executionFlow = parseHistory([
  human('Can you deactivate refactoring/* augments?'),
  ai(call('toolu_abc123xyz', deactivate, { patterns: ['refactoring/*'] })),
  tool(response('toolu_abc123xyz', deactivate, '{"unloaded": ["refactoring/a", "refactoring/b", "refactoring/c"]}')),
  aiText('Deactivated 3 augments...'),
  human('Now help me with feature X'),
]);

// Spec 003 edge case 3: deactivate(workflow/*) → toolu_111, later deactivate(code_analysis/*) → toolu_222.
const firstDeactivation = parseHistory([
  human('Look around the workflow code.'),
  ...toolTurn('toolu_010', { say: 'Reading the workflow.' }),
  aiText('The workflow is a state machine.'),
  human('Drop the workflow augments.'),
  ...toolTurn('toolu_111', { name: deactivate }),
  aiText('Deactivated workflow/*.'),
]);
const secondDeactivation = parseHistory([
  ...firstDeactivation,
  human('Analyse the lexer.'),
  ...toolTurn('toolu_150', { say: 'Reading the lexer.' }),
  human('Drop the analysis augments.'),
  ...toolTurn('toolu_222', { name: deactivate }),
  aiText('Deactivated code_analysis/*.'),
]);

describe('createStatefulWatermarkStrategy', () => {
  it('should be a continuous strategy named stateful-watermark with no watermark at first', () => {
    const strategy = createStatefulWatermarkStrategy();
    expect(strategy.name).toBe('stateful-watermark');
    expect(strategy.trigger.mode).toBe('continuous');
    expect(strategy.requiresLLM).toBe(false);
    expect(strategy.getWatermark()).toBeUndefined();
    expect(strategy.getLastWarnings()).toEqual([]);
  });

  it('spec 003 execution flow: the flag set by the tool moves the watermark to its call; message 0 keeps its text', async () => {
    // Spec 003's own set-up: no automatic names; the deactivate_augments implementation raises the flag.
    const strategy = createStatefulWatermarkStrategy({ checkpointToolNames: [] });
    strategy.requestCheckpoint(deactivate);
    const outcome = await strategy.compress(contextFor(executionFlow));
    // Phase 1: watermark toolu_abc123xyz, flag cleared. Phase 2: the message at index 1 holds it; before it, only
    // the user's text, which stays — the compressed request equals the original.
    expect(strategy.getWatermark()).toBe('toolu_abc123xyz');
    expect(outcome).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
    expect(isEmptyDensityResult(strategy.optimize?.(executionFlow, density) ?? noEdits)).toBe(true);
    expect(strategy.getLastWarnings()).toEqual([]);

    // Feature X work happens after the watermark: kept as is.
    const featureWork = parseHistory([...executionFlow, ...toolTurn('toolu_x1', { say: 'Reading X.' }), aiText('X done.'), human('Now Y.')]);
    expect(isEmptyDensityResult(strategy.optimize?.(featureWork, density) ?? noEdits)).toBe(true);

    // The next deactivation moves the watermark on, and the feature X tool history goes.
    const next = parseHistory([...featureWork, ...toolTurn('toolu_def456', { name: deactivate }), aiText('Deactivated.')]);
    strategy.requestCheckpoint(deactivate);
    const moved = await strategy.compress(contextFor(next));
    expect(strategy.getWatermark()).toBe('toolu_def456');
    expect(moved.type === 'applied' && moved.metadata.counts).toMatchObject({ toolCallsRemoved: 2, toolResultsRemoved: 2 });
    expect(moved.type === 'applied' && texts(moved.newHistory)).toEqual(texts(next));
  });

  it('should not move without a flag when no checkpoint names are configured', async () => {
    const strategy = createStatefulWatermarkStrategy({ checkpointToolNames: [] });
    expect(await strategy.compress(contextFor(secondDeactivation))).toMatchObject({
      type: 'no-op',
      message: 'no watermark: no checkpoint tools are configured and none was requested',
    });
    expect(strategy.getWatermark()).toBeUndefined();
  });

  it('spec 003 edge case 4: with no watermark yet, resolution searches from the start of the history', async () => {
    const strategy = createStatefulWatermarkStrategy();
    const outcome = await strategy.compress(contextFor(secondDeactivation));
    expect(strategy.getWatermark()).toBe('toolu_111');
    expect(outcome.type === 'applied' && outcome.metadata.counts).toMatchObject({ toolCallsRemoved: 1, boundaryIndex: 5 });
  });

  it('spec 003 edge case 3: multiple deactivations advance the watermark, one per pass, more aggressively each time', async () => {
    const strategy = createStatefulWatermarkStrategy();
    const first = await strategy.compress(contextFor(firstDeactivation));
    expect(strategy.getWatermark()).toBe('toolu_111');
    expect(first.type === 'applied' && first.metadata.counts?.toolCallsRemoved).toBe(1);

    // Re-checkpointing with the same tool must not find toolu_111 again (spec 003's code would).
    const second = await strategy.compress(contextFor(secondDeactivation));
    expect(strategy.getWatermark()).toBe('toolu_222');
    expect(second.type === 'applied' && second.metadata.counts).toMatchObject({ toolCallsRemoved: 3, toolResultsRemoved: 3 });
    expect(second.type === 'applied' && shape(second.newHistory).slice(-3)).toEqual(['ai:tool_call', 'tool:tool_response', 'ai:text']);
    expect(second.type === 'applied' && findToolPairingProblems(second.newHistory)).toEqual([]);
  });

  it('should resolve one checkpoint per pass, as spec 003 clears its flag after each resolution', () => {
    const strategy = createStatefulWatermarkStrategy();
    strategy.optimize?.(secondDeactivation, density);
    expect(strategy.getWatermark()).toBe('toolu_111');
    strategy.optimize?.(secondDeactivation, density);
    expect(strategy.getWatermark()).toBe('toolu_222');
    strategy.optimize?.(secondDeactivation, density);
    expect(strategy.getWatermark()).toBe('toolu_222');
  });

  it('should lag one call behind when one assistant turn holds two checkpoint calls, until the next pass', () => {
    const history = parseHistory([human('x'), ...toolTurn('a'), ai(call('c1', deactivate), call('c2', deactivate)), tool(response('c1', deactivate), response('c2', deactivate))]);
    const strategy = createStatefulWatermarkStrategy();
    strategy.optimize?.(history, density);
    expect(strategy.getWatermark()).toBe('c1');
    strategy.optimize?.(history, density);
    expect(strategy.getWatermark()).toBe('c2');
  });

  it('spec 003 edge case 1: a watermark no longer in the history removes nothing and warns', async () => {
    const strategy = createStatefulWatermarkStrategy();
    strategy.setWatermark('toolu_gone');
    const history = parseHistory([human('x'), ...toolTurn('a'), aiText('done')]);
    const outcome = await strategy.compress(contextFor(history));
    const warning = { type: 'other', message: 'watermark toolu_gone not found in the history; nothing was removed' };
    expect(outcome).toEqual({
      type: 'no-op',
      reason: 'too-few-compressible',
      message: 'watermark toolu_gone not found in the history',
      warnings: [warning],
    });
    expect(isEmptyDensityResult(strategy.optimize?.(history, density) ?? noEdits)).toBe(true);
    expect(strategy.getLastWarnings()).toEqual([warning]);
    expect(strategy.getWatermark()).toBe('toolu_gone');
  });

  it('should move on from a watermark that was cut out of the history when a newer checkpoint is there', async () => {
    const strategy = createStatefulWatermarkStrategy();
    strategy.setWatermark('toolu_111');
    // Another strategy dropped everything up to the first deactivation; the second one is in what is left.
    const truncated = secondDeactivation.slice(9);
    const outcome = await strategy.compress(contextFor(truncated));
    expect(strategy.getWatermark()).toBe('toolu_222');
    expect(outcome.type).toBe('applied');
  });

  it('spec 003 edge case 2: a requested checkpoint with no call warns and keeps the old boundary', async () => {
    const strategy = createStatefulWatermarkStrategy({ checkpointToolNames: [] });
    strategy.requestCheckpoint(deactivate);
    await strategy.compress(contextFor(firstDeactivation));
    expect(strategy.getWatermark()).toBe('toolu_111');

    const later = parseHistory([...firstDeactivation, human('Analyse the lexer.'), ...toolTurn('toolu_150'), aiText('Done.')]);
    strategy.requestCheckpoint('compress_to_checkpoint');
    const outcome = await strategy.compress(contextFor(later));
    expect(strategy.getWatermark()).toBe('toolu_111');
    // Compression at the old watermark still applies (here: the exploration before toolu_111).
    expect(outcome.type === 'applied' && outcome.metadata.counts?.boundaryIndex).toBe(5);
    expect(outcome.type === 'applied' && outcome.warnings?.[0]).toEqual({
      type: 'other',
      message: 'checkpoint tool compress_to_checkpoint has no call after the watermark toolu_111; the watermark stays',
    });
    // The flag was cleared: the next pass does not warn again.
    await strategy.compress(contextFor(later));
    expect(strategy.getLastWarnings()).toEqual([]);
  });

  it('should let a requested tool that is not in checkpointToolNames move the watermark (e.g. activate_augments)', async () => {
    const strategy = createStatefulWatermarkStrategy();
    const history = parseHistory([human('x'), ...toolTurn('a'), ...toolTurn('act', { name: 'mcp__nisaba__activate_augments' }), aiText('ok')]);
    expect(await strategy.compress(contextFor(history))).toMatchObject({ type: 'no-op' });
    strategy.requestCheckpoint('mcp__nisaba__activate_augments');
    expect((await strategy.compress(contextFor(history))).type).toBe('applied');
    expect(strategy.getWatermark()).toBe('act');
  });

  it('spec 003 "Future Enhancements 3": a saved watermark restored into a new instance gives the same result', async () => {
    const strategy = createStatefulWatermarkStrategy();
    await strategy.compress(contextFor(firstDeactivation));
    const saved = strategy.getWatermark();
    const restarted = createStatefulWatermarkStrategy();
    restarted.setWatermark(saved);
    const history = parseHistory([...firstDeactivation, human('More.'), ...toolTurn('toolu_150'), aiText('Done.')]);
    expect(await restarted.compress(contextFor(history))).toEqual(await strategy.compress(contextFor(history)));
    restarted.setWatermark(undefined);
    expect(restarted.getWatermark()).toBeUndefined();
  });

  it('should forecast with estimateReduction without moving the watermark', async () => {
    const strategy = createStatefulWatermarkStrategy();
    const estimate = await strategy.estimateReduction?.(contextFor(firstDeactivation));
    expect(strategy.getWatermark()).toBeUndefined();
    expect(estimate?.estimatedTokensAfter).toBeLessThan(estimate?.tokensBefore ?? 0);
  });

  it('should end a turn-by-turn session where the stateless strategy is after one pass', async () => {
    // A session replayed entry by entry through the orchestrator, one send before every assistant entry.
    const session: HistoryEntry[] = [...secondDeactivation, human('And the parser.'), ...toolTurn('toolu_300', { name: 'compress_to_checkpoint' }), aiText('Checkpointed.')];
    const strategy = createStatefulWatermarkStrategy();
    const service = new HistoryService({ tokenizer: wordTokenizer() });
    const orchestrator = createCompressionOrchestrator({ history: service, strategies: [strategy], contextLimit: 1_000_000 });
    for (const entry of session) {
      if (entry.speaker === 'ai') await orchestrator.ensureCompressionBeforeSend();
      service.add(entry);
    }
    await orchestrator.ensureCompressionBeforeSend();
    orchestrator.dispose();
    expect(strategy.getWatermark()).toBe('toolu_300');
    const stateless = await createWatermarkStrategy().compress(contextFor(session));
    expect(stateless.type === 'applied' && stateless.newHistory).toEqual(service.getRawHistory());
  });
});
