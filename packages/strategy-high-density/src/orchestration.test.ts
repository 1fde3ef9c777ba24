import { DEFAULT_COMPRESSION_THRESHOLD, HistoryService, createCompressionOrchestrator, type HistoryEntry } from '@ctx/core';
import { createToolSemanticsRegistry } from '@ctx/strategy-utils';
import { describe, expect, it } from 'vitest';
import { createHighDensityStrategy } from './high-density-strategy.js';
import { bash, bashTurns, edit, history, human, read, responsesById, turn } from './test-support/history-fixtures.js';
import { wordTokenizer, words } from './test-support/word-tokens.js';

/** A read of 400 words made stale by an edit, then a short exchange: optimize removes most of the tokens. */
const staleReadSession = (): readonly HistoryEntry[] =>
  history(
    human('fix it'),
    turn(read('r1', '/repo/a.ts', words(400))),
    turn(edit('e1', '/repo/a.ts')),
    turn(bash('b1', 'npm test', words(20))),
  );

function orchestratorFor(entries: readonly HistoryEntry[], contextLimit: number, settings = {}) {
  const service = new HistoryService({ tokenizer: wordTokenizer(), history: entries });
  const orchestrator = createCompressionOrchestrator({
    history: service,
    strategies: [createHighDensityStrategy(settings)],
    contextLimit,
    workspaceRoot: '/repo',
  });
  return { service, orchestrator };
}

describe('createHighDensityStrategy in the orchestrator', () => {
  it('BR-THRESH-001: should take an override, then the session threshold, then the strategy default of 0.85', async () => {
    const { service, orchestrator } = orchestratorFor(staleReadSession(), 10_000);
    await service.waitForTokenUpdates();
    expect(orchestrator.getEffectiveSettings().threshold).toMatchObject({ value: 0.85, source: 'strategy-default' });
    orchestrator.dispose();
    const overridden = createCompressionOrchestrator({
      history: service,
      strategies: [createHighDensityStrategy()],
      contextLimit: 10_000,
      settings: { 'compression.threshold': 0.5 },
    });
    expect(overridden.getEffectiveSettings().threshold).toMatchObject({ value: 0.5, source: 'global' });
    overridden.setThresholdOverride(0.7);
    expect(overridden.getEffectiveSettings().threshold).toMatchObject({ value: 0.7, source: 'override' });
    overridden.dispose();
  });

  it('BR-THRESH-002: should share the default threshold of the threshold strategies', () => {
    expect(createHighDensityStrategy().trigger.defaultThreshold).toBe(DEFAULT_COMPRESSION_THRESHOLD);
    expect(DEFAULT_COMPRESSION_THRESHOLD).toBe(0.85);
  });

  it('BR-THRESH-005: should decide on compression with the tokens left after optimize', async () => {
    const entries = staleReadSession();
    const { service, orchestrator } = orchestratorFor(entries, 500);
    await service.waitForTokenUpdates();
    // Over 0.85 × 500 before optimize, under it after: no compression pass.
    expect(service.getTotalTokens()).toBeGreaterThan(425);
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.passes.map((pass) => [pass.pass, pass.outcome])).toEqual([['density', 'applied']]);
    expect(report.passes[0]?.densityMetadata).toMatchObject({ readWritePairsPruned: 1 });
    expect(service.getTotalTokens()).toBeLessThan(425);
    orchestrator.dispose();
  });

  it('should compress after optimize when the history is still over the threshold', async () => {
    const entries = history(
      human('go'),
      ...bashTurns(6, { command: (index) => `make step${index}`, output: words(200) }),
    );
    const { service, orchestrator } = orchestratorFor(entries, 1_300);
    await service.waitForTokenUpdates();
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.passes.map((pass) => [pass.pass, pass.outcome])).toEqual([
      ['density', 'no-op'],
      ['compression', 'applied'],
    ]);
    expect(service.getTotalTokens()).toBeLessThanOrEqual(Math.floor(0.85 * 1_300 * 0.6));
    orchestrator.dispose();
  });

  it('EC-042: should not apply anything when optimize finds nothing, and keep the token count', async () => {
    const entries = history(human('go'), turn(bash('b1', 'ls', words(10))));
    const { service, orchestrator } = orchestratorFor(entries, 100_000);
    await service.waitForTokenUpdates();
    const before = service.getTotalTokens();
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.passes).toMatchObject([{ pass: 'density', outcome: 'no-op', reason: 'nothing-to-optimize' }]);
    expect(service.getTotalTokens()).toBe(before);
    expect(service.getRawHistory()).toEqual(entries);
    orchestrator.dispose();
  });

  it('should prune by recency when the session setting turns it on, whatever the strategy setting says', async () => {
    const entries = history(human('go'), ...bashTurns(3, { command: () => 'ls', output: words(30) }));
    const service = new HistoryService({ tokenizer: wordTokenizer(), history: entries });
    const orchestrator = createCompressionOrchestrator({
      history: service,
      strategies: [createHighDensityStrategy({ recencyPruning: false })],
      contextLimit: 100_000,
      settings: { 'compression.density.recencyPruning': true, 'compression.density.recencyRetention': 1 },
    });
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.passes[0]?.densityMetadata).toMatchObject({ recencyPruned: 2 });
    expect(responsesById(service.getRawHistory()).get('b0')?.result).toBe('[Result pruned — re-run tool to retrieve]');
    orchestrator.dispose();
  });

  it('ERR-002: should let an optimize error propagate out of ensureCompressionBeforeSend', async () => {
    const registry = createToolSemanticsRegistry();
    registry.register('Bash', () => {
      throw new Error('classifier failed');
    });
    const { orchestrator } = orchestratorFor(staleReadSession(), 100_000, { registry });
    await expect(orchestrator.ensureCompressionBeforeSend()).rejects.toThrow('classifier failed');
    orchestrator.dispose();
  });
});
