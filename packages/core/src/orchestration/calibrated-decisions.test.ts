// Spec 002 §5.1 / §6.1 in the orchestrator: decisions on calibrated counts, usage fed back, reset after compaction.
import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { HistoryService } from '../history/history-service.js';
import { getHistoryTokenTarget } from '../strategy/compression-budget.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import { human, toolCall, toolResult } from '../test-support/entries.js';
import { keepNewest, words } from '../test-support/stub-strategies.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import type { TokenCalibrationOptions } from '../tokens/token-calibration.js';
import { createCompressionOrchestrator } from './compression-orchestrator.js';
import { formatTurnReport } from './format-turn-report.js';

function setup(
  strategies: CompressionStrategy[],
  entries: HistoryEntry[],
  { contextLimit = 1_000, calibration }: { contextLimit?: number; calibration?: TokenCalibrationOptions | false } = {},
) {
  const history = new HistoryService({ tokenizer: createWordTokenizer(), history: entries });
  const orchestrator = createCompressionOrchestrator({
    history,
    strategies,
    contextLimit,
    ...(calibration === undefined ? {} : { calibration }),
  });
  return { history, orchestrator };
}

describe('createCompressionOrchestrator (calibrated counts)', () => {
  it('spec 002 §5.1: should compress a request the tokenizer under-counts before it overflows the real window', async () => {
    // The provider counts 1.3× our tokens: 800 of ours are 1,040 real, over the 1,000-token window.
    const strategy = keepNewest('keep-newest', 1);
    const { history, orchestrator } = setup([strategy], [human(words(7))]);
    await orchestrator.ensureCompressionBeforeSend();
    orchestrator.recordUsage({ inputTokens: 13 });
    history.add(human(words(397)));
    history.add(human(words(387)));
    await history.waitForTokenUpdates();
    expect(history.getTotalTokens()).toBe(800);
    // Uncalibrated, 800 is under the 850-token threshold and would have been sent.
    expect(orchestrator.shouldCompress()).toMatchObject({ compress: true, projectedTokens: 1_040 });
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(strategy.calls).toHaveLength(1);
    expect(report.request.calibratedTokens).toBeLessThanOrEqual(1_000);
    expect(Math.round(1.3 * history.getTotalTokens())).toBeLessThanOrEqual(1_000);
  });

  it('TestTimingGap_CalibratedHeuristicPreventsOverflow: should scale what a tool added by the factor, not stay at the stale real count', async () => {
    const strategy = keepNewest('keep-newest', 2);
    const { history, orchestrator } = setup([strategy], [human(words(67))], { contextLimit: 200 });
    orchestrator.setThresholdOverride(0.9);
    await orchestrator.ensureCompressionBeforeSend();
    // Step N: ours 70, real 140 (correction 2.0).
    orchestrator.recordUsage({ inputTokens: 140 });
    history.add(toolCall('t1', { command: 'kubectl get pods' }, 'Bash'));
    history.add(toolResult('t1', words(9), 'Bash'));
    await history.waitForTokenUpdates();
    // Step N+1: ours 90 → calibrated 180, the threshold; the stale 140 alone would not have triggered.
    expect(orchestrator.estimateRequest()).toMatchObject({ estimatedTokens: 90, calibratedTokens: 180 });
    await orchestrator.ensureCompressionBeforeSend();
    expect(strategy.calls).toHaveLength(1);
  });

  it('should never estimate below the last real count plus what was added since, while the history only grew', async () => {
    const { history, orchestrator } = setup([keepNewest()], [human(words(97))]);
    await orchestrator.ensureCompressionBeforeSend();
    // Something the history does not hold (a provider's framing, a system prompt kept elsewhere): ratio 10, clamped to 5.
    orchestrator.recordUsage({ inputTokens: 1_000 });
    expect(orchestrator.getCalibration()).toMatchObject({ factor: 5, source: 'measured', lastSample: { ratio: 10 } });
    history.add(human(words(7)));
    await history.waitForTokenUpdates();
    // max(110 × 5, 1,000 + 10 × 5)
    expect(orchestrator.estimateRequest().calibratedTokens).toBe(1_050);
    expect(orchestrator.estimateRequest(10).calibratedTokens).toBe(1_100);
  });

  it("should give compress() its budget in the tokenizer's units: the calibrated limits divided by the factor", async () => {
    const strategy = keepNewest();
    const { history, orchestrator } = setup([strategy], [human(words(97))]);
    await orchestrator.ensureCompressionBeforeSend();
    orchestrator.recordUsage({ inputTokens: 200 });
    history.add(human(words(397)));
    await orchestrator.ensureCompressionBeforeSend();
    const budget = strategy.calls[0]?.budget;
    // Factor 2: the 1,000-token window is 500 of ours, the 510-token target (0.85 × 1,000 × 0.6) is 255.
    expect(budget).toEqual({ contextLimit: 500, threshold: 0.85, targetTokens: 255, overheadTokens: 0 });
    expect(budget && getHistoryTokenTarget(budget)).toBe(255);
  });

  it('spec 002 resetCalibration: should use at least the initial factor after a compaction, until usage is reported again', async () => {
    const { history, orchestrator } = setup([keepNewest()], [human(words(97))]);
    await orchestrator.ensureCompressionBeforeSend();
    orchestrator.recordUsage({ inputTokens: 110 });
    expect(orchestrator.getCalibration().factor).toBeCloseTo(1.1);
    history.add(human(words(797)));
    const report = await orchestrator.ensureCompressionBeforeSend();
    // The turn decided with the factor it started with…
    expect(report.request.calibration).toMatchObject({ source: 'measured' });
    expect(report.request.calibration.factor).toBeCloseTo(1.1);
    // …and the next one starts from the reset factor.
    expect(orchestrator.getCalibration()).toMatchObject({ source: 'reset', factor: 1.5 });
    orchestrator.recordUsage({ inputTokens: Math.round(history.getTotalTokens() * 1.1) });
    expect(orchestrator.getCalibration().source).toBe('measured');
  });

  it('should take the estimate of the request the last check cleared, not of entries added after it', async () => {
    const { history, orchestrator } = setup([keepNewest()], [human(words(97))]);
    await orchestrator.ensureCompressionBeforeSend();
    // The model's answer is added before its usage is recorded: it was not part of the request.
    history.add(human(words(97)));
    orchestrator.recordUsage({ inputTokens: 150 });
    expect(orchestrator.getCalibration().lastSample).toEqual({ estimatedTokens: 100, actualTokens: 150, ratio: 1.5 });
    orchestrator.recordUsage({ inputTokens: 400, estimatedTokens: 200 });
    expect(orchestrator.getCalibration().factor).toBe(2);
  });

  it('should reject usage that is not a whole number of tokens, and change nothing', () => {
    const { orchestrator } = setup([keepNewest()], [human('hi')]);
    expect(() => orchestrator.recordUsage({ inputTokens: -5 })).toThrow(/usage\.inputTokens: Expected a whole number of tokens ≥ 0, got -5/);
    expect(() => orchestrator.recordUsage(undefined as never)).toThrow(InvalidSettingsError);
    expect(orchestrator.getCalibration()).toMatchObject({ source: 'initial', samples: 0 });
  });

  it('should show the calibrated request in the report and its text', async () => {
    const { history, orchestrator } = setup([keepNewest()], [human(words(97))]);
    await orchestrator.ensureCompressionBeforeSend();
    orchestrator.recordUsage({ inputTokens: 118 });
    history.add(human('next'));
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.request).toMatchObject({ estimatedTokens: 104, calibratedTokens: 123, availableTokens: 1_000, fits: true });
    expect(formatTurnReport(report)).toContain('request 123 of 1,000 tokens (104 counted × 1.18 measured)');
  });

  it('should decide on our counts as they are when calibration is off', async () => {
    const { history, orchestrator } = setup([keepNewest()], [human(words(797))], { calibration: false });
    await history.waitForTokenUpdates();
    orchestrator.recordUsage({ inputTokens: 5_000 });
    expect(orchestrator.shouldCompress()).toMatchObject({ compress: false, projectedTokens: 800 });
    expect(history.getTotalTokens()).toBe(800);
  });
});
