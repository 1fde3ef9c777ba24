// The orchestrator never decides on a partial token count (issue 14): after a tokenizer failure it recounts, and
// throws TokenCountError while the count still fails, instead of sending an over-window request.
import { describe, expect, it } from 'vitest';
import { TokenCountError } from '../errors/token-count-error.js';
import { HistoryService } from '../history/history-service.js';
import { ai, human } from '../test-support/entries.js';
import { keepNewest, selecting, words } from '../test-support/stub-strategies.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import { createCompressionOrchestrator } from './compression-orchestrator.js';

function setup(options: { failures?: number } = {}) {
  const state = { broken: options.failures === undefined, failuresLeft: options.failures ?? 0 };
  const tokenizer = createWordTokenizer((text) => {
    if (state.broken) throw new Error('tokenizer offline');
    if (state.failuresLeft > 0) {
      state.failuresLeft -= 1;
      throw new Error('tokenizer offline');
    }
    return text.split(/\s+/).filter(Boolean).length;
  });
  const history = new HistoryService({ tokenizer });
  const strategy = keepNewest();
  const orchestrator = createCompressionOrchestrator({
    history,
    strategies: [strategy],
    contextLimit: 1_000,
    calibration: false,
    settings: { 'compression.reservedOutputTokens': 0 },
  });
  // 1,206 tokens in a 1,000-token window.
  history.addAll([human(words(700)), ai(words(400)), human(words(100))]);
  return { history, orchestrator, strategy, state };
}

describe('CompressionOrchestrator after a tokenizer failure', () => {
  it('should throw TokenCountError on every before-send while the tokenizer fails, not send an over-window request', async () => {
    const { history, orchestrator, strategy } = setup();
    for (let call = 0; call < 3; call++) {
      const error: unknown = await orchestrator.ensureCompressionBeforeSend().catch((caught: unknown) => caught);
      expect(TokenCountError.isInstance(error)).toBe(true);
      expect((error as TokenCountError).entryIndex).toBe(0);
    }
    await expect(orchestrator.enforceContextWindow({ pendingTokens: 0 })).rejects.toThrow(TokenCountError);
    expect(() => orchestrator.shouldCompress()).toThrow(TokenCountError);
    expect(() => orchestrator.estimateRequest()).toThrow(TokenCountError);
    expect(strategy.calls).toHaveLength(0);
    expect(history.length).toBe(3);
  });

  it('should recount and compress an over-window history once the tokenizer recovers', async () => {
    const { history, orchestrator, state } = setup();
    await expect(orchestrator.ensureCompressionBeforeSend()).rejects.toThrow(TokenCountError);
    await expect(orchestrator.ensureCompressionBeforeSend()).rejects.toThrow(TokenCountError);
    state.broken = false;
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.tokensBefore).toBe(1_209);
    expect(report.decision?.compress).toBe(true);
    expect(report.request.fits).toBe(true);
    expect(history.getTotalTokens()).toBe(103);
  });

  it("should throw TokenCountError naming the result's entry when the tokenizer fails on a strategy's result, and keep the history", async () => {
    const tokenizer = createWordTokenizer((text) => {
      if (text.includes('UNCOUNTABLE')) throw new Error('tokenizer offline');
      return text.split(/\s+/).filter(Boolean).length;
    });
    const history = new HistoryService({ tokenizer });
    const summarizing = selecting('summarize-stub', (entries) => [human('short summary'), human('UNCOUNTABLE text'), ...entries.slice(-1)]);
    const orchestrator = createCompressionOrchestrator({
      history,
      strategies: [summarizing],
      contextLimit: 1_000,
      calibration: false,
      settings: { 'compression.reservedOutputTokens': 0 },
    });
    history.addAll([human(words(700)), ai(words(400)), human(words(100))]);
    const before = history.getAll();

    const error: unknown = await orchestrator.ensureCompressionBeforeSend().catch((caught: unknown) => caught);
    expect(TokenCountError.isInstance(error)).toBe(true);
    expect((error as TokenCountError).message).toBe('Could not count the tokens of history entry 1: tokenizer offline');
    expect(history.getAll()).toEqual(before);
  });

  it('should not report "nothing to do" on an over-window history after a one-off failure someone else saw', async () => {
    const { history, orchestrator, strategy } = setup({ failures: 1 });
    // An earlier reader (a UI, a logger) got the failure; the history must not now count as 0 tokens.
    await history.waitForTokenUpdates().catch(() => undefined);
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.tokensBefore).toBe(1_209);
    expect(report.decision?.compress).toBe(true);
    expect(strategy.calls).toHaveLength(1);
    expect(report.request.fits).toBe(true);
  });
});
