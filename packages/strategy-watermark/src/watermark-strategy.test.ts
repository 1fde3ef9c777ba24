import {
  HistoryService,
  InvalidStrategySettingsError,
  applyDensityResultToHistory,
  createCompressionOrchestrator,
  findToolPairingProblems,
  isEmptyDensityResult,
  parseHistory,
  type CompressionStrategyFactory,
  type DensityConfig,
  type HistoryEntry,
} from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHECKPOINT_TOOL_NAMES, type WatermarkSettings, type WatermarkSettingsInput } from './watermark-settings.js';
import { createWatermarkStrategy } from './watermark-strategy.js';
import {
  ai,
  aiText,
  call,
  contextFor,
  human,
  response,
  shape,
  text,
  texts,
  thinking,
  tool,
  toolTurn,
  wordTokenizer,
} from './test-support/entries.js';

// Compile-time check: the factory fits the contract's factory type, so registries and plugin loaders accept it.
const factory: CompressionStrategyFactory<WatermarkSettingsInput, WatermarkSettings> = createWatermarkStrategy;

const density: DensityConfig = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: false,
  recencyRetention: 3,
  workspaceRoot: '/repo',
};

const checkpoint = 'compress_to_checkpoint';

// 0 human, 1-2 Read a, 3-4 checkpoint c1, 5 human, 6-7 Read b, 8-9 checkpoint c2, 10 ai text, 11 human
const twoCheckpoints = parseHistory([
  human('Explore the parser.'),
  ...toolTurn('a', { say: 'Reading a.' }),
  ...toolTurn('c1', { name: checkpoint, say: 'Exploration done.' }),
  human('Now fix the lexer.'),
  ...toolTurn('b', { say: 'Reading b.' }),
  ...toolTurn('c2', { name: checkpoint }),
  aiText('Lexer fixed.'),
  human('Thanks'),
]);

describe('createWatermarkStrategy', () => {
  it('should be a continuous strategy named watermark that needs no LLM, with spec 003 checkpoint tools by default', () => {
    const strategy = factory();
    expect(strategy.name).toBe('watermark');
    expect(strategy.trigger).toEqual({ mode: 'continuous', defaultThreshold: 0.85 });
    expect(strategy.requiresLLM).toBe(false);
    expect(strategy.capabilities).toEqual({ lossless: false, estimatedSpeed: 'fast' });
    expect(strategy.settings).toEqual({ checkpointToolNames: [...DEFAULT_CHECKPOINT_TOOL_NAMES], removeThinking: false });
    expect(DEFAULT_CHECKPOINT_TOOL_NAMES).toEqual([
      'compress_to_checkpoint',
      'deactivate_augments',
      'mcp__nisaba__compress_to_checkpoint',
      'mcp__nisaba__deactivate_augments',
    ]);
  });

  it('should remove tool calls and results before the newest checkpoint and keep all text', async () => {
    const outcome = await createWatermarkStrategy().compress(contextFor(twoCheckpoints));
    expect(outcome.type).toBe('applied');
    if (outcome.type !== 'applied') return;
    expect(shape(outcome.newHistory)).toEqual([
      'human:text',
      'ai:text',
      'ai:text',
      'human:text',
      'ai:text',
      'ai:tool_call',
      'tool:tool_response',
      'ai:text',
      'human:text',
    ]);
    expect(texts(outcome.newHistory)).toEqual(texts(twoCheckpoints));
    expect(outcome.newHistory.slice(-4)).toEqual(twoCheckpoints.slice(-4));
    expect(findToolPairingProblems(outcome.newHistory)).toEqual([]);
    expect(outcome.metadata).toMatchObject({
      originalMessageCount: 12,
      compressedMessageCount: 9,
      strategyUsed: 'watermark',
      llmCallMade: false,
      counts: { toolCallsRemoved: 3, toolResultsRemoved: 3, entriesRemoved: 3, entriesEdited: 3, boundaryIndex: 8 },
    });
    expect(outcome.warnings?.[0]?.type).toBe('lossy');
    expect(outcome.warnings?.[0]?.message).toMatch(/removed 3 tool calls, 3 tool results before the watermark c2 \(\d+ tokens, 3 emptied entries dropped\)/);
  });

  it('should do nothing without a checkpoint call: an empty optimize result and a too-few-compressible no-op', async () => {
    const history = parseHistory([human('x'), ...toolTurn('a'), aiText('done')]);
    const strategy = createWatermarkStrategy();
    expect(isEmptyDensityResult(strategy.optimize?.(history, density) ?? { removals: [1], replacements: new Map(), metadata: {} })).toBe(true);
    expect(await strategy.compress(contextFor(history))).toEqual({
      type: 'no-op',
      reason: 'too-few-compressible',
      message: `no call of a checkpoint tool (${DEFAULT_CHECKPOINT_TOOL_NAMES.join(', ')}) in the history`,
    });
  });

  it('EC-001: should return empty-history for an empty history', async () => {
    expect(await createWatermarkStrategy().compress(contextFor([]))).toEqual({ type: 'no-op', reason: 'empty-history' });
  });

  it('spec 003 execution flow: should change nothing when nothing before the checkpoint is tool history', async () => {
    const history = parseHistory([
      human('Can you deactivate refactoring/* augments?'),
      ai(call('toolu_abc123xyz', 'mcp__nisaba__deactivate_augments', { patterns: ['refactoring/*'] })),
      tool(response('toolu_abc123xyz', 'mcp__nisaba__deactivate_augments', '{"unloaded": ["a", "b", "c"]}')),
      aiText('Deactivated 3 augments...'),
      human('Now help me with feature X'),
    ]);
    const strategy = createWatermarkStrategy();
    expect(isEmptyDensityResult(strategy.optimize?.(history, density) ?? { removals: [0], replacements: new Map(), metadata: {} })).toBe(true);
    expect(await strategy.compress(contextFor(history))).toMatchObject({
      type: 'no-op',
      reason: 'too-few-compressible',
      message: 'no tool call or tool result before the watermark toolu_abc123xyz (its turn starts at entry 1)',
    });
  });

  it('should give optimize() the same edits as compress(), accepted by applyDensityResult', async () => {
    const strategy = createWatermarkStrategy();
    const result = strategy.optimize?.(twoCheckpoints, density);
    expect(result?.metadata).toEqual({ toolCallsRemoved: 3, toolResultsRemoved: 3, thinkingBlocksRemoved: 0, entriesRemoved: 3, entriesEdited: 3 });
    const optimized = applyDensityResultToHistory(twoCheckpoints, result ?? { removals: [], replacements: new Map(), metadata: {} }, 'watermark');
    const compressed = await strategy.compress(contextFor(twoCheckpoints));
    expect(compressed.type === 'applied' && compressed.newHistory).toEqual(optimized);
  });

  it('should be idempotent: a second pass over its own output finds nothing to remove', async () => {
    const strategy = createWatermarkStrategy();
    const first = await strategy.compress(contextFor(twoCheckpoints));
    if (first.type !== 'applied') throw new Error('expected applied');
    expect(isEmptyDensityResult(strategy.optimize?.(first.newHistory, density) ?? { removals: [0], replacements: new Map(), metadata: {} })).toBe(true);
    expect(await strategy.compress(contextFor(first.newHistory))).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
  });

  it('spec 003 "Future Enhancements 3": should re-derive the watermark, so a new instance after a restart gives the same result', async () => {
    const before = await createWatermarkStrategy().compress(contextFor(twoCheckpoints));
    const afterRestart = await createWatermarkStrategy().compress(contextFor(twoCheckpoints));
    expect(afterRestart).toEqual(before);
  });

  it('spec 003 edge case 3: should advance with every new checkpoint call', async () => {
    const strategy = createWatermarkStrategy();
    const upToFirst = twoCheckpoints.slice(0, 6);
    const first = await strategy.compress(contextFor(upToFirst));
    expect(first.type === 'applied' && first.metadata.counts?.boundaryIndex).toBe(3);
    const both = await strategy.compress(contextFor(twoCheckpoints));
    expect(both.type === 'applied' && both.metadata.counts?.boundaryIndex).toBe(8);
  });

  it('should keep a Claude Code turn split over several ai entries whole, with all its results', async () => {
    const history = parseHistory([
      human('Check two files, then checkpoint.'),
      aiText('Reading both.'),
      ai(call('a')),
      ai(call('b')),
      tool(response('a')),
      tool(response('b')),
      aiText('Checkpointing.'),
      ai(call('a2')),
      ai(call('w', checkpoint)),
      tool(response('a2')),
      tool(response('w', checkpoint)),
    ]);
    const outcome = await createWatermarkStrategy().compress(contextFor(history));
    expect(outcome.type).toBe('applied');
    if (outcome.type !== 'applied') return;
    // The checkpoint's turn starts at "Checkpointing.": its sibling call a2 keeps its result.
    expect(shape(outcome.newHistory)).toEqual([
      'human:text',
      'ai:text',
      'ai:text',
      'ai:tool_call',
      'ai:tool_call',
      'tool:tool_response',
      'tool:tool_response',
    ]);
    expect(findToolPairingProblems(outcome.newHistory)).toEqual([]);
  });

  it('should keep pairing when dropped tool entries make earlier assistant text join the checkpoint turn', async () => {
    const history = parseHistory([human('x'), ai(text('Reading a.'), call('a')), tool(response('a')), ai(call('w', checkpoint)), tool(response('w', checkpoint))]);
    const strategy = createWatermarkStrategy();
    const outcome = await strategy.compress(contextFor(history));
    if (outcome.type !== 'applied') throw new Error('expected applied');
    expect(shape(outcome.newHistory)).toEqual(['human:text', 'ai:text', 'ai:tool_call', 'tool:tool_response']);
    expect(findToolPairingProblems(outcome.newHistory)).toEqual([]);
    expect(await strategy.compress(contextFor(outcome.newHistory))).toMatchObject({ type: 'no-op' });
  });

  it('should use the position of the newest checkpoint, so repeated call ids (some trajectories) do not move it back', async () => {
    const history = parseHistory([
      human('x'),
      ...toolTurn('call_0', { name: checkpoint }),
      human('y'),
      ...toolTurn('call_1'),
      ...toolTurn('call_0', { name: checkpoint }),
    ]);
    const outcome = await createWatermarkStrategy().compress(contextFor(history));
    expect(outcome.type === 'applied' && outcome.metadata.counts?.boundaryIndex).toBe(6);
    expect(outcome.type === 'applied' && shape(outcome.newHistory)).toEqual(['human:text', 'human:text', 'ai:tool_call', 'tool:tool_response']);
  });

  it('should watch the configured tool names, a single name given as a string included', async () => {
    const history = parseHistory([human('x'), ...toolTurn('a'), ...toolTurn('t', { name: 'TodoWrite' }), aiText('ok')]);
    for (const checkpointToolNames of ['TodoWrite', ['TodoWrite']]) {
      const strategy = createWatermarkStrategy({ checkpointToolNames });
      expect(strategy.settings?.checkpointToolNames).toEqual(['TodoWrite']);
      const outcome = await strategy.compress(contextFor(history));
      expect(outcome.type === 'applied' && outcome.metadata.counts?.toolCallsRemoved).toBe(1);
    }
    expect(await createWatermarkStrategy().compress(contextFor(history))).toMatchObject({ type: 'no-op' });
  });

  it('should never fire with an empty list of checkpoint tools', async () => {
    const outcome = await createWatermarkStrategy({ checkpointToolNames: [] }).compress(contextFor(twoCheckpoints));
    expect(outcome).toMatchObject({ type: 'no-op', message: 'no checkpoint tools are configured (checkpointToolNames is empty)' });
  });

  it('should keep thinking before the watermark by default and drop it whole with removeThinking', async () => {
    const history = parseHistory([
      human('x'),
      ai(thinking('Which file?'), call('a')),
      tool(response('a')),
      human('now the checkpoint'),
      ...toolTurn('w', { name: checkpoint }),
    ]);
    const kept = await createWatermarkStrategy().compress(contextFor(history));
    expect(kept.type === 'applied' && shape(kept.newHistory)).toEqual(['human:text', 'ai:thinking', 'human:text', 'ai:tool_call', 'tool:tool_response']);
    const dropped = await createWatermarkStrategy({ removeThinking: true }).compress(contextFor(history));
    expect(dropped.type === 'applied' && shape(dropped.newHistory)).toEqual(['human:text', 'human:text', 'ai:tool_call', 'tool:tool_response']);
    expect(dropped.type === 'applied' && dropped.warnings?.[0]?.message).toMatch(/removed 1 tool call, 1 tool result, 1 thinking block/);
  });

  it('should keep the thinking of the turn still in its tool loop even with removeThinking (Anthropic rejects it otherwise)', async () => {
    const history = parseHistory([human('x'), ai(thinking('Which file?'), call('a')), tool(response('a')), ...toolTurn('w', { name: checkpoint })]);
    const outcome = await createWatermarkStrategy({ removeThinking: true }).compress(contextFor(history));
    expect(outcome.type === 'applied' && shape(outcome.newHistory)).toEqual(['human:text', 'ai:thinking', 'ai:tool_call', 'tool:tool_response']);
  });

  it('should apply whatever the budget says and warn target-not-met when the result is still over the target', async () => {
    const roomy = await createWatermarkStrategy().compress(contextFor(twoCheckpoints, { contextLimit: 100_000 }));
    expect(roomy.type === 'applied' && roomy.warnings?.map((warning) => warning.type)).toEqual(['lossy']);
    const tight = await createWatermarkStrategy().compress(contextFor(twoCheckpoints, { contextLimit: 10 }));
    expect(tight.type === 'applied' && tight.warnings?.map((warning) => warning.type)).toEqual(['lossy', 'target-not-met']);
  });

  it('should estimate its reduction without changing anything', async () => {
    const context = contextFor(twoCheckpoints);
    const estimate = await createWatermarkStrategy().estimateReduction?.(context);
    const outcome = await createWatermarkStrategy().compress(context);
    if (outcome.type !== 'applied' || estimate === undefined) throw new Error('expected an estimate and a result');
    expect(estimate).toEqual({
      tokensBefore: context.tokenCounter.countEntries(twoCheckpoints),
      estimatedTokensAfter: context.tokenCounter.countEntries(outcome.newHistory),
    });
    expect(estimate.estimatedTokensAfter).toBeLessThan(estimate.tokensBefore);
  });

  it('should remove tool history before every send through the orchestrator, under the threshold too', async () => {
    const service = new HistoryService({ tokenizer: wordTokenizer() });
    const orchestrator = createCompressionOrchestrator({ history: service, strategies: [createWatermarkStrategy()], contextLimit: 1_000_000 });
    service.addAll(twoCheckpoints.slice(0, 3));
    const quiet = await orchestrator.ensureCompressionBeforeSend();
    expect(quiet.passes.map((pass) => [pass.pass, pass.outcome])).toEqual([['density', 'no-op']]);
    service.addAll(twoCheckpoints.slice(3));
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.passes.map((pass) => [pass.pass, pass.outcome])).toEqual([['density', 'applied']]);
    expect(report.passes[0]?.densityMetadata).toMatchObject({ toolCallsRemoved: 3, toolResultsRemoved: 3 });
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
    expect(shape(service.getRawHistory())).toHaveLength(9);
    orchestrator.dispose();
  });

  it('should never mutate its (frozen) input', async () => {
    const history: HistoryEntry[] = [human('x'), ...toolTurn('a'), ...toolTurn('w', { name: checkpoint })];
    const frozen = parseHistory(history);
    const strategy = createWatermarkStrategy();
    strategy.optimize?.(frozen, density);
    await strategy.compress(contextFor(frozen));
    expect(frozen).toEqual(parseHistory(history));
  });

  it('should reject invalid settings with a line naming the option', () => {
    expect(() => createWatermarkStrategy({ checkpointToolNames: [''] })).toThrow(InvalidStrategySettingsError);
    expect(() => createWatermarkStrategy({ checkpointToolNames: [''] })).toThrow(/checkpointToolNames.*Expected a non-empty tool name/);
    expect(() => createWatermarkStrategy({ removeThinking: 'yes' } as never)).toThrow(/removeThinking/);
    expect(() => createWatermarkStrategy({ checkpointTools: ['x'] } as never)).toThrow(/Unrecognized key/);
  });
});
