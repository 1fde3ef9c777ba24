import { describe, expect, it } from 'vitest';
import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import { InvalidStrategyError } from '../errors/invalid-strategy-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { HistoryService } from '../history/history-service.js';
import { deepFreeze } from '../history/deep-freeze.js';
import { createCompressionOrchestrator } from '../orchestration/compression-orchestrator.js';
import { ai, human, toolCall, toolResult } from '../test-support/entries.js';
import { strategyNamed } from '../test-support/strategy-stub.js';
import { dropFirst, selecting, words } from '../test-support/stub-strategies.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { applyDensityResultToHistory } from './apply-density-result.js';
import { composeStrategies } from './compose-strategies.js';
import { createCompressionBudget } from './compression-budget.js';
import type { CompressionContext } from './compression-context.js';
import type { CompressionStrategy } from './compression-strategy.js';
import type { DensityConfig, DensityResult } from './density-result.js';

const config: DensityConfig = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: false,
  recencyRetention: 3,
  workspaceRoot: '/',
};

/** A continuous step whose optimize() removes the entries whose text is `drop`. */
const dropMarked = (name = 'drop-marked'): CompressionStrategy =>
  strategyNamed(name, {
    trigger: { mode: 'continuous', defaultThreshold: 0.8 },
    optimize: (history): DensityResult => ({
      removals: history.flatMap((entry, index) => (entry.blocks[0]?.type === 'text' && entry.blocks[0].text === 'drop' ? [index] : [])),
      replacements: new Map(),
      metadata: { dropped: history.filter((entry) => entry.blocks[0]?.type === 'text' && entry.blocks[0].text === 'drop').length },
    }),
  });

/** A continuous step whose optimize() upper-cases every `ai` text. */
const shout: CompressionStrategy = strategyNamed('shout', {
  trigger: { mode: 'continuous', defaultThreshold: 0.85 },
  optimize: (history): DensityResult => {
    const replacements = new Map<number, HistoryEntry>();
    history.forEach((entry, index) => {
      const [block] = entry.blocks;
      if (entry.speaker === 'ai' && block?.type === 'text' && block.text !== block.text.toUpperCase()) {
        replacements.set(index, ai(block.text.toUpperCase()));
      }
    });
    return { removals: [], replacements, metadata: { shouted: replacements.size } };
  },
});

function contextFor(history: readonly HistoryEntry[], targetTokens: number): CompressionContext {
  const tokenCounter = createTokenCounter(createWordTokenizer());
  return {
    history: deepFreeze([...history]),
    system: [],
    tools: [],
    tokenCounter,
    budget: createCompressionBudget({ contextLimit: 1_000, threshold: 0.85, targetTokens }),
  };
}

describe('composeStrategies', () => {
  it('should chain the steps\' optimize() into one result on the input, counted per step', () => {
    const history = deepFreeze([human('task'), ai('drop'), ai('hello'), human('drop'), ai('bye')]);
    const pipeline = composeStrategies({ name: 'pipeline', strategies: [dropMarked(), shout] });
    const result = (pipeline.optimize as NonNullable<CompressionStrategy['optimize']>)(history, config);
    expect(applyDensityResultToHistory(history, result)).toEqual([human('task'), ai('HELLO'), ai('BYE')]);
    expect(result.removals).toEqual([1, 3]);
    expect(result.metadata).toEqual({ 'drop-marked.dropped': 2, 'shout.shouted': 2 });
  });

  it('should give a later step\'s removal of an entry an earlier step replaced as a removal only', () => {
    const removeHello = strategyNamed('remove-hello', {
      trigger: { mode: 'continuous', defaultThreshold: 0.85 },
      optimize: (history) => ({
        removals: history.flatMap((entry, index) => (entry.blocks[0]?.type === 'text' && entry.blocks[0].text === 'HELLO' ? [index] : [])),
        replacements: new Map(),
        metadata: {},
      }),
    });
    const history = deepFreeze([human('task'), ai('hello'), ai('bye')]);
    const result = (composeStrategies({ name: 'p', strategies: [shout, removeHello] }).optimize as NonNullable<CompressionStrategy['optimize']>)(history, config);
    expect(result.removals).toEqual([1]);
    expect([...result.replacements.keys()]).toEqual([2]);
  });

  it('should stop compressing as soon as the request meets the target', async () => {
    const first = dropFirst('first');
    const second = dropFirst('second');
    const history = [human(words(10)), ai(words(10)), human(words(10)), ai(words(10))];
    // Three entries of ten words (plus each entry's few framing tokens) fit 40; four do not.
    const result = await composeStrategies({ name: 'p', strategies: [first, second] }).compress(contextFor(history, 40));
    expect(result.type).toBe('applied');
    expect(second.calls).toHaveLength(0);
    if (result.type === 'applied') expect(result.newHistory).toHaveLength(3);
  });

  it('should hand the next step the previous step\'s result while the request is over the target', async () => {
    const first = dropFirst('first');
    const second = dropFirst('second');
    const history = [human(words(10)), ai(words(10)), human(words(10)), ai(words(10))];
    const result = await composeStrategies({ name: 'p', strategies: [first, second] }).compress(contextFor(history, 20));
    expect(second.calls[0]?.history).toHaveLength(3);
    expect(result.type === 'applied' && result.newHistory).toHaveLength(2);
    expect(result.type === 'applied' && result.metadata.strategyUsed).toBe('p');
  });

  it('should be a no-op naming every step\'s reason when no step applied', async () => {
    const history = [human(words(10)), ai(words(10))];
    const pipeline = composeStrategies({
      name: 'p',
      strategies: [strategyNamed('a'), strategyNamed('b', { compress: () => Promise.resolve({ type: 'no-op', reason: 'too-few-compressible', message: 'nothing old' }) })],
    });
    const result = await pipeline.compress(contextFor(history, 5));
    expect(result).toMatchObject({ type: 'no-op', reason: 'too-few-compressible', message: 'a: already-under-target; b: too-few-compressible (nothing old)' });
  });

  it('should refuse a step\'s result that breaks tool pairing, naming the step', async () => {
    const orphaning = selecting('orphaning', (history) => history.filter((entry) => entry.speaker !== 'ai'));
    const history = [human('task'), toolCall('t1'), toolResult('t1', words(20))];
    const pipeline = composeStrategies({ name: 'p', strategies: [orphaning] });
    await expect(pipeline.compress(contextFor(history, 5))).rejects.toSatisfy(
      (error) => CompressionStrategyError.isInstance(error) && error.message.includes('"orphaning"'),
    );
  });

  it('should describe itself from its steps: trigger, threshold, LLM, capabilities and settings', () => {
    const llm = strategyNamed('llm', { requiresLLM: true, capabilities: { llmSummarization: true, estimatedSpeed: 'slow' } });
    const pipeline = composeStrategies({ name: 'p', strategies: [dropMarked(), llm, dropMarked()] });
    expect(pipeline.trigger).toEqual({ mode: 'continuous', defaultThreshold: 0.8 });
    expect(pipeline.requiresLLM).toBe(true);
    expect(pipeline.capabilities).toMatchObject({ lossless: false, llmSummarization: true, estimatedSpeed: 'slow' });
    expect(pipeline.settings?.steps.map((step) => step.label)).toEqual(['drop-marked', 'llm', 'drop-marked#2']);
    expect('optimize' in composeStrategies({ name: 'q', strategies: [strategyNamed('a')] })).toBe(false);
  });

  it('should reject a name that is not kebab-case, an empty pipeline and a threshold outside (0, 1]', () => {
    expect(() => composeStrategies({ name: 'Coding Agent', strategies: [strategyNamed('a')] })).toThrow(/kebab-case/);
    expect(() => composeStrategies({ name: 'p', strategies: [] })).toThrow(InvalidStrategyError);
    expect(() => composeStrategies({ name: 'p', strategies: [strategyNamed('a')], threshold: 1.5 })).toThrow(/\(0, 1\]/);
  });

  it('should run in the orchestrator like one strategy: density of every step, then compression', async () => {
    const tokenCounter = createTokenCounter(createWordTokenizer());
    const history = new HistoryService({ tokenCounter, history: [human(words(30)), ai('drop'), ai(words(30)), human(words(30)), ai(words(30))] });
    const orchestrator = createCompressionOrchestrator({
      history,
      strategies: [composeStrategies({ name: 'p', strategies: [dropMarked(), dropFirst('first')] })],
      contextLimit: 100,
      calibration: false,
    });
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.passes.map((pass) => [pass.pass, pass.strategy, pass.outcome])).toEqual([
      ['density', 'p', 'applied'],
      ['compression', 'p', 'applied'],
    ]);
    expect(history.getCurated().some((entry) => entry.blocks[0]?.type === 'text' && entry.blocks[0].text === 'drop')).toBe(false);
    orchestrator.dispose();
  });
});

describe('composeStrategies expand()', () => {
  const referencing = (name: string, from: string, to: string): CompressionStrategy =>
    strategyNamed(name, {
      capabilities: { lossless: true },
      expand: (history) => history.map((entry) => (entry.blocks[0]?.type === 'text' && entry.blocks[0].text === to ? ai(from) : entry)),
    });

  it('should resolve every lossless step\'s references, last step first', () => {
    const pipeline = composeStrategies({ name: 'p', strategies: [referencing('a', 'original', 'ref-a'), referencing('b', 'ref-a', 'ref-b')] });
    expect(pipeline.expand?.([human('task'), ai('ref-b')])).toEqual([human('task'), ai('original')]);
  });

  it('should not claim expand() when a step is lossy, and expose the steps instead', () => {
    const lossless = referencing('a', 'original', 'ref-a');
    const pipeline = composeStrategies({ name: 'p', strategies: [lossless, dropFirst('lossy')] });
    expect('expand' in pipeline).toBe(false);
    expect(pipeline.capabilities?.lossless).toBe(false);
    expect(pipeline.steps[0]).toBe(lossless);
  });
});
