import { describe, expect, it, vi } from 'vitest';
import { CompressionFailedError } from '../errors/compression-failed-error.js';
import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import { ContextWindowExceededError } from '../errors/context-window-exceeded-error.js';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { UnknownStrategyError } from '../errors/unknown-strategy-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { HistoryService } from '../history/history-service.js';
import { getHistoryTokenTarget } from '../strategy/compression-budget.js';
import type { CompressionContext } from '../strategy/compression-context.js';
import type { CompressionResult } from '../strategy/compression-result.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import { createEmptyDensityResult, type DensityResult } from '../strategy/density-result.js';
import { ai, human, toolCall, toolResult } from '../test-support/entries.js';
import { dropFirst, keepNewest, selecting, words } from '../test-support/stub-strategies.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import {
  createCompressionOrchestrator,
  type CompressionOrchestratorOptions,
} from './compression-orchestrator.js';
import { formatTurnReport } from './format-turn-report.js';

/** A continuous strategy whose optimize() removes every entry whose text starts with "stale". */
function pruneStale(compress?: CompressionStrategy['compress']): CompressionStrategy & { optimizeCalls: number } {
  const strategy = {
    specificationVersion: 'v1' as const,
    name: 'prune-stale',
    requiresLLM: false,
    trigger: { mode: 'continuous' as const, defaultThreshold: 0.85 },
    optimizeCalls: 0,
    optimize(history: readonly HistoryEntry[]): DensityResult {
      strategy.optimizeCalls += 1;
      const removals = history.flatMap((entry, index) =>
        entry.blocks.some((block) => block.type === 'text' && block.text.startsWith('stale')) ? [index] : [],
      );
      return { removals, replacements: new Map(), metadata: { recencyPruned: removals.length } };
    },
    compress: compress ?? ((): Promise<CompressionResult> => Promise.resolve({ type: 'no-op', reason: 'too-few-compressible' })),
  };
  return strategy;
}

function setup(
  strategies: CompressionStrategy[],
  entries: HistoryEntry[],
  options: Partial<CompressionOrchestratorOptions> = {},
) {
  const history = new HistoryService({ tokenizer: createWordTokenizer(), history: entries });
  // Uncalibrated unless a test says otherwise: these tests state spec 000's flow in the tokenizer's own counts.
  const orchestrator = createCompressionOrchestrator({ history, strategies, contextLimit: 100, calibration: false, ...options });
  return { history, orchestrator };
}

describe('createCompressionOrchestrator', () => {
  describe('§2a dirty flag', () => {
    it('§2a: should start dirty and run optimize() on the first send', async () => {
      const strategy = pruneStale();
      const { orchestrator } = setup([strategy], [human('hello')]);
      expect(orchestrator.isDensityDirty()).toBe(true);
      await orchestrator.ensureCompressionBeforeSend();
      expect(strategy.optimizeCalls).toBe(1);
      expect(orchestrator.isDensityDirty()).toBe(false);
    });

    it('§2a: should skip optimize() when no content was added since the last run', async () => {
      const strategy = pruneStale();
      const { orchestrator } = setup([strategy], [human('hello')]);
      await orchestrator.ensureCompressionBeforeSend();
      await orchestrator.ensureCompressionBeforeSend();
      expect(strategy.optimizeCalls).toBe(1);
    });

    it('§2a: should become dirty on every add from the turn loop (human, ai, tool)', async () => {
      const strategy = pruneStale();
      const { history, orchestrator } = setup([strategy], []);
      for (const entry of [human('q'), toolCall('c'), toolResult('c', 'r'), ai('a')]) {
        await orchestrator.ensureCompressionBeforeSend();
        expect(orchestrator.isDensityDirty()).toBe(false);
        history.add(entry);
        expect(orchestrator.isDensityDirty()).toBe(true);
      }
    });

    it('§2a: should not become dirty from density edits, compression rebuilds or recounts', async () => {
      const newest = keepNewest();
      const strategy = pruneStale((context) => newest.compress(context));
      const { history, orchestrator } = setup([strategy], [human('stale one'), human(words(60)), human(words(60))]);
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.passes.map((pass) => `${pass.pass}:${pass.outcome}`)).toEqual(['density:applied', 'compression:applied']);
      await history.recalculateTotalTokens();
      expect(orchestrator.isDensityDirty()).toBe(false);
    });

    it('§2a: should clear the flag even when optimize() throws (ERR-002)', async () => {
      const strategy = pruneStale();
      strategy.optimize = () => {
        throw new Error('optimize broke');
      };
      const { orchestrator } = setup([strategy], [human('x')]);
      await expect(orchestrator.ensureCompressionBeforeSend()).rejects.toThrow('optimize broke');
      expect(orchestrator.isDensityDirty()).toBe(false);
    });
  });

  describe('§2b compression trigger flow', () => {
    it('§2b: should wait for token updates, then optimize, then decide, then compress', async () => {
      const order: string[] = [];
      const strategy = pruneStale((context) => {
        order.push('compress');
        return keepNewest().compress(context);
      });
      const optimize = strategy.optimize?.bind(strategy);
      strategy.optimize = (history, config) => {
        order.push('optimize');
        return optimize!(history, config);
      };
      const { history, orchestrator } = setup([strategy], [human(words(50)), human(words(50))]);
      const wait = history.waitForTokenUpdates.bind(history);
      history.waitForTokenUpdates = () => {
        order.push('wait');
        return wait();
      };
      await orchestrator.ensureCompressionBeforeSend();
      expect(order.slice(0, 3)).toEqual(['wait', 'optimize', 'compress']);
    });

    it('§2b: should not compress below the threshold and compress at it', async () => {
      const strategy = keepNewest();
      // 84 tokens of 100: below 0.85.
      const { history, orchestrator } = setup([strategy], [human(words(38)), human(words(40))]);
      const quiet = await orchestrator.ensureCompressionBeforeSend();
      expect(quiet.decision?.compress).toBe(false);
      expect(strategy.calls).toHaveLength(0);
      history.add(human('one'));
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.decision?.trigger).toBe('threshold');
      expect(strategy.calls).toHaveLength(1);
      expect(history.length).toBe(1);
    });

    it('§2b: should count pending tokens of the message about to be sent', async () => {
      const strategy = keepNewest();
      const { orchestrator } = setup([strategy], [human(words(38)), human(words(40))]);
      const report = await orchestrator.ensureCompressionBeforeSend({ pendingTokens: 10 });
      expect(report.decision?.projectedTokens).toBe(94);
      expect(strategy.calls).toHaveLength(1);
    });

    it('EC-042: should not call applyDensityResult when optimize() finds nothing', async () => {
      const { history, orchestrator } = setup([pruneStale()], [human('fresh')]);
      const apply = vi.spyOn(history, 'applyDensityResult');
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(apply).not.toHaveBeenCalled();
      expect(report.passes[0]).toMatchObject({ pass: 'density', outcome: 'no-op', reason: 'nothing-to-optimize' });
    });

    it('should skip density optimization for strategies without optimize()', async () => {
      const { orchestrator } = setup([keepNewest()], [human('a')]);
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.passes).toEqual([]);
    });

    it('BR-THRESH-005: should decide on the token count after density optimization', async () => {
      const strategy = pruneStale((context) => keepNewest().compress(context));
      const compress = vi.spyOn(strategy, 'compress');
      // 93 tokens before optimize (over 85), 20 after it removes the stale entry.
      const { orchestrator } = setup([strategy], [human(`stale ${words(69)}`), human(words(17))]);
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.tokensBefore).toBe(93);
      expect(report.decision).toMatchObject({ compress: false, projectedTokens: 20 });
      expect(compress).not.toHaveBeenCalled();
    });

    it('BR-THRESH-004: should give compress() the budget threshold × contextLimit × 0.6 with the overhead counted', async () => {
      const strategy = keepNewest();
      const history = new HistoryService({
        tokenizer: createWordTokenizer(),
        system: [{ type: 'text', text: words(10) }],
        history: [human(words(80))],
      });
      const orchestrator = createCompressionOrchestrator({
        history,
        strategies: [strategy],
        contextLimit: 100,
        calibration: false,
        transcriptPath: '/tmp/session.jsonl',
        getActiveTodos: () => [{ content: 'ship it', status: 'in_progress' }],
      });
      await orchestrator.ensureCompressionBeforeSend();
      const context = strategy.calls[0];
      expect(context?.budget).toEqual({ contextLimit: 100, threshold: 0.85, targetTokens: 51, overheadTokens: 10 });
      expect(context && getHistoryTokenTarget(context.budget)).toBe(41);
      expect(context?.transcriptPath).toBe('/tmp/session.jsonl');
      expect(context?.activeTodos).toEqual([{ content: 'ship it', status: 'in_progress' }]);
      expect(Object.isFrozen(context?.history)).toBe(true);
    });

    it('should give compress() an explicit targetTokens instead of threshold × window × 0.6', async () => {
      const strategy = keepNewest();
      const { orchestrator } = setup([strategy], [human(words(90))], { targetTokens: 20 });
      await orchestrator.ensureCompressionBeforeSend();
      expect(strategy.calls[0]?.budget.targetTokens).toBe(20);
      expect(() => setup([strategy], [], { targetTokens: -1 })).toThrow(/targetTokens: Expected a whole number/);
    });

    it('should keep entries that arrive while a slow compression runs', async () => {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const strategy = keepNewest();
      const slow: CompressionStrategy = { ...strategy, compress: async (context) => (await gate, strategy.compress(context)) };
      const { history, orchestrator } = setup([slow], [human(words(45)), human(words(45))]);
      const turn = orchestrator.ensureCompressionBeforeSend();
      await vi.waitFor(() => expect(history.isCompressing()).toBe(true));
      history.add(toolResult('late', 'arrived during compression'), { allowOrphanResponses: true });
      release();
      await turn;
      expect(history.getAll().map((entry) => entry.speaker)).toEqual(['human', 'tool']);
      expect(orchestrator.isDensityDirty()).toBe(true);
    });
  });

  describe('thresholds', () => {
    it('BR-THRESH-001: should apply the session override over the profile, the global setting and the default', async () => {
      const strategy = keepNewest();
      const { orchestrator } = setup([strategy], [human(words(47)), human(words(0))], {
        settings: { 'compression.threshold': 0.9, 'compression.profileThresholds': { default: 95 } },
      });
      expect(orchestrator.getEffectiveSettings().threshold).toMatchObject({ value: 0.95, source: 'profile' });
      expect((await orchestrator.ensureCompressionBeforeSend()).decision?.compress).toBe(false);
      orchestrator.setThresholdOverride(0.5);
      expect(orchestrator.getEffectiveSettings().threshold).toMatchObject({ value: 0.5, source: 'override' });
      expect((await orchestrator.ensureCompressionBeforeSend()).decision?.compress).toBe(true);
      orchestrator.setThresholdOverride(undefined);
      orchestrator.updateSettings({ 'compression.profile': 'other' });
      expect(orchestrator.getEffectiveSettings().threshold).toMatchObject({ value: 0.9, source: 'global' });
      expect(() => orchestrator.setThresholdOverride(1.5)).toThrow(InvalidSettingsError);
    });

    it('FR-TH-001: should resolve each profile on its own, -1 inheriting', () => {
      const { orchestrator } = setup([keepNewest()], [], {
        settings: { 'compression.profileThresholds': { cheap: 60, inherit: -1 } },
      });
      expect(orchestrator.getEffectiveSettings('cheap').threshold.value).toBe(0.6);
      expect(orchestrator.getEffectiveSettings('inherit').threshold).toMatchObject({ value: 0.85, source: 'strategy-default' });
    });

    it('FR-TH-003: should compress under the threshold when the reserved output would not fit', async () => {
      const strategy = keepNewest();
      // 40 tokens + 55 reserved > 90 (window minus the 10% buffer); 40% is under the 85% threshold.
      const { orchestrator } = setup([strategy], [human(words(17)), human(words(17))], {
        settings: { 'compression.reservedOutputTokens': 55 },
      });
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.decision?.trigger).toBe('context-window');
      expect(strategy.calls).toHaveLength(1);
    });
  });

  describe('errors', () => {
    it('ERR-001: should reject an unknown strategy name with the known names', () => {
      expect(() => setup([keepNewest('alpha')], [], { settings: { 'compression.strategy': 'beta' } })).toThrow(
        UnknownStrategyError,
      );
      const { orchestrator } = setup([keepNewest('alpha'), keepNewest('gamma')], []);
      expect(() => orchestrator.setActiveStrategy('beta')).toThrow(/known strategies: alpha, gamma/);
      expect(orchestrator.getActiveStrategy().name).toBe('alpha');
      orchestrator.setActiveStrategy('gamma');
      expect(orchestrator.getActiveStrategy().name).toBe('gamma');
    });

    it('ERR-002: should propagate an optimize() error unchanged and leave the history alone', async () => {
      const failure = new Error('optimize exploded');
      const strategy = pruneStale();
      strategy.optimize = () => {
        throw failure;
      };
      const { history, orchestrator } = setup([strategy], [human('a')]);
      const before = history.getRawHistory();
      await expect(orchestrator.ensureCompressionBeforeSend()).rejects.toBe(failure);
      expect(history.getRawHistory()).toBe(before);
    });

    it('ERR-003: should propagate a compress() error unchanged, end the compression and leave the history alone', async () => {
      const failure = new Error('compress exploded');
      const strategy: CompressionStrategy = { ...keepNewest(), compress: () => Promise.reject(failure) };
      const { history, orchestrator } = setup([strategy], [human(words(90))]);
      const before = history.getRawHistory();
      await expect(orchestrator.ensureCompressionBeforeSend()).rejects.toBe(failure);
      expect(history.getRawHistory()).toBe(before);
      expect(history.isCompressing()).toBe(false);
    });

    it('should reject a compression result that breaks tool pairing, and keep the history', async () => {
      const strategy: CompressionStrategy = {
        ...keepNewest(),
        compress: (context) =>
          Promise.resolve({
            type: 'applied',
            newHistory: context.history.filter((entry) => entry.speaker !== 'tool'),
            metadata: { originalMessageCount: 0, compressedMessageCount: 0, strategyUsed: 'x', llmCallMade: false },
          }),
      };
      const { history, orchestrator } = setup([strategy], [human('go'), toolCall('c1'), toolResult('c1', words(90))]);
      const before = history.getRawHistory();
      const error = await orchestrator.ensureCompressionBeforeSend().catch((caught: unknown) => caught);
      expect(CompressionStrategyError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/breaks tool call \/ response pairing/);
      expect(history.getRawHistory()).toBe(before);
    });

    it('should rethrow an abort and change nothing', async () => {
      const controller = new AbortController();
      controller.abort(new Error('user pressed Esc'));
      const strategy = keepNewest();
      const { history, orchestrator } = setup([strategy, keepNewest('backup')], [human(words(95))], {
        settings: { 'compression.fallbackStrategies': ['backup'] },
      });
      await expect(orchestrator.ensureCompressionBeforeSend({ signal: controller.signal })).rejects.toThrow('user pressed Esc');
      expect(history.length).toBe(1);
      expect(strategy.calls).toHaveLength(0);
    });
  });

  describe('concurrency', () => {
    it('ERR-032: should serialize two concurrent sends so compression never runs twice at once', async () => {
      let active = 0;
      let maxActive = 0;
      const inner = keepNewest();
      const strategy: CompressionStrategy = {
        ...inner,
        async compress(context) {
          active += 1;
          maxActive = Math.max(maxActive, active);
          await new Promise((resolve) => setTimeout(resolve, 5));
          active -= 1;
          return inner.compress(context);
        },
      };
      const { orchestrator } = setup([strategy], [human(words(45)), human(words(45))]);
      const [first, second] = await Promise.all([
        orchestrator.ensureCompressionBeforeSend(),
        orchestrator.ensureCompressionBeforeSend(),
      ]);
      expect(maxActive).toBe(1);
      expect(inner.calls).toHaveLength(1);
      expect(first.passes).toHaveLength(1);
      expect(second.decision?.compress).toBe(false);
    });

    it('ERR-031: should queue ensureDensityOptimized() behind a running compression instead of corrupting it', async () => {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const strategy = pruneStale(async (context) => (await gate, keepNewest().compress(context)));
      const { history, orchestrator } = setup([strategy], [human(words(45)), human(words(45))]);
      const turn = orchestrator.ensureCompressionBeforeSend();
      await vi.waitFor(() => expect(history.isCompressing()).toBe(true));
      history.add(human('stale entry added mid-compression'));
      const density = orchestrator.ensureDensityOptimized();
      release();
      await turn;
      const report = await density;
      expect(report).toMatchObject({ pass: 'density', outcome: 'applied' });
      expect(history.getAll().map((entry) => entry.blocks[0])).toEqual([{ type: 'text', text: words(45) }]);
    });
  });

  describe('no-progress guard', () => {
    const noProgress = (): CompressionStrategy & { calls: number } => {
      const strategy = {
        ...keepNewest('stubborn'),
        calls: 0,
        compress(context: CompressionContext): Promise<CompressionResult> {
          strategy.calls += 1;
          return Promise.resolve({
            type: 'applied',
            newHistory: context.history,
            metadata: { originalMessageCount: 1, compressedMessageCount: 1, strategyUsed: 'stubborn', llmCallMade: false },
          });
        },
      };
      return strategy;
    };

    it('should report a result that does not reduce tokens as a no-op and leave the history', async () => {
      const strategy = noProgress();
      const { history, orchestrator } = setup([strategy], [human(words(90))]);
      const before = history.getRawHistory();
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.passes[0]).toMatchObject({ outcome: 'no-op', reason: 'no-progress' });
      expect(history.getRawHistory()).toBe(before);
    });

    it('should retry a model-calling strategy only once the history has grown by 5% of the window', async () => {
      const strategy = Object.assign(noProgress(), { requiresLLM: true });
      const { history, orchestrator } = setup([strategy], [human(words(86))]);
      await orchestrator.ensureCompressionBeforeSend();
      // 89 → 93 tokens: less than 5 (5% of the window) more than the failed attempt.
      history.add(human('a'));
      const skipped = await orchestrator.ensureCompressionBeforeSend();
      expect(skipped.passes[0]).toMatchObject({ outcome: 'no-op', reason: 'no-progress-backoff' });
      expect(strategy.calls).toBe(1);
      // 97 tokens: grown by 8 since the failed attempt.
      history.add(human('c'));
      await orchestrator.ensureCompressionBeforeSend();
      expect(strategy.calls).toBe(2);
    });

    it('should not retry when nothing changed since an attempt that made no progress', async () => {
      const strategy = noProgress();
      const { orchestrator } = setup([strategy], [human(words(90))]);
      await orchestrator.ensureCompressionBeforeSend();
      const skipped = await orchestrator.ensureCompressionBeforeSend();
      expect(skipped.passes[0]).toMatchObject({ outcome: 'no-op', reason: 'no-progress-backoff' });
      expect(skipped.passes[0]?.message).toMatch(/nothing changed since/);
      expect(strategy.calls).toBe(1);
    });

    it('should retry a deterministic strategy as soon as the history changed shape, whatever the growth', async () => {
      // The newest entry is protected: a giant newest tool result cannot be compressed until a turn follows it.
      const keepsNewestTurn = selecting('protects-newest', (entries) => (entries.length < 3 ? entries : entries.slice(-1)));
      const { history, orchestrator } = setup(
        [keepsNewestTurn],
        [toolCall('c1', { command: 'cat big.log' }, 'Bash'), toolResult('c1', words(90), 'Bash')],
      );
      const first = await orchestrator.ensureCompressionBeforeSend();
      expect(first.passes.at(-1)).toMatchObject({ outcome: 'no-op', reason: 'no-progress' });
      // A short answer: the history grew by 2 tokens (under 5% of the window), but the giant result is no longer newest.
      history.add(ai('ok'));
      const second = await orchestrator.ensureCompressionBeforeSend();
      expect(second.emergency).toBe(true);
      expect(keepsNewestTurn.calls).toHaveLength(2);
      expect(second.passes.at(-1)).toMatchObject({ outcome: 'applied' });
      expect(history.getTotalTokens()).toBeLessThan(10);
    });

    it('should make a deterministic strategy wait for growth too while the request still fits (no futile rerun every turn)', async () => {
      const strategy = noProgress();
      const { history, orchestrator } = setup([strategy], [human(words(86))]);
      const first = await orchestrator.ensureCompressionBeforeSend();
      expect(first).toMatchObject({ emergency: false, request: { fits: true } });
      history.add(human('a'));
      const skipped = await orchestrator.ensureCompressionBeforeSend();
      expect(skipped.passes[0]).toMatchObject({ outcome: 'no-op', reason: 'no-progress-backoff' });
      expect(skipped.passes[0]?.message).toMatch(/made no progress; retrying once the history grows by 5 tokens/);
      expect(strategy.calls).toBe(1);
      history.add(human('c'));
      await orchestrator.ensureCompressionBeforeSend();
      expect(strategy.calls).toBe(2);
    });

    it('should wait for growth after a compression that left the request above its target, instead of compacting every turn', async () => {
      // Drops only the oldest entry, a short one: under the threshold (85) again, but far above the target (51).
      const strategy = dropFirst('nibbles');
      const { history, orchestrator } = setup([strategy], [human('x y z'), human(words(80))]);
      const first = await orchestrator.ensureCompressionBeforeSend();
      expect(first.passes.at(-1)).toMatchObject({ outcome: 'applied' });
      expect(first.request.calibratedTokens).toBeGreaterThan(51);

      history.add(human('a'));
      const second = await orchestrator.ensureCompressionBeforeSend();
      expect(second.decision?.compress).toBe(true);
      expect(second.passes.at(-1)).toMatchObject({ outcome: 'no-op', reason: 'no-progress-backoff' });
      expect(second.passes.at(-1)?.message).toMatch(/left \d+ tokens, above its target/);
      expect(strategy.calls).toHaveLength(1);
    });

    it('should apply the guard to strategy no-ops too, and let performCompression() force a retry', async () => {
      const strategy: CompressionStrategy & { calls: number } = {
        ...keepNewest('tired'),
        calls: 0,
        compress() {
          strategy.calls += 1;
          return Promise.resolve({ type: 'no-op', reason: 'too-few-compressible' });
        },
      };
      const { orchestrator } = setup([strategy], [human(words(90))]);
      await orchestrator.ensureCompressionBeforeSend();
      await orchestrator.ensureCompressionBeforeSend();
      expect(strategy.calls).toBe(1);
      const forced = await orchestrator.performCompression();
      expect(forced.decision).toBeUndefined();
      expect(strategy.calls).toBe(2);
    });
  });

  describe('fallback strategies (NFR-R-002)', () => {
    it('should fall back to the next strategy when the active one fails, and report both', async () => {
      const broken: CompressionStrategy = { ...keepNewest('broken'), compress: () => Promise.reject(new Error('LLM down')) };
      const backup = keepNewest('backup');
      const { history, orchestrator } = setup([broken, backup], [human(words(45)), human(words(45))], {
        settings: { 'compression.strategy': 'broken', 'compression.fallbackStrategies': ['backup'] },
      });
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.passes.map((pass) => `${pass.strategy}:${pass.outcome}`)).toEqual(['broken:failed', 'backup:applied']);
      expect(report.passes[0]?.warnings[0]?.type).toBe('fallback');
      expect(history.length).toBe(1);
    });

    it('should fall back when the active strategy returns a no-op, and back off only when all said no', async () => {
      const unable: CompressionStrategy = {
        ...keepNewest('needs-llm'),
        compress: () => Promise.resolve({ type: 'no-op', reason: 'missing-summarizer' }),
      };
      const backup = keepNewest('backup');
      const { history, orchestrator } = setup([unable, backup], [human(words(45)), human(words(45))], {
        settings: { 'compression.fallbackStrategies': ['backup'] },
      });
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.passes.map((pass) => `${pass.strategy}:${pass.outcome}:${pass.reason ?? ''}`)).toEqual([
        'needs-llm:no-op:missing-summarizer',
        'backup:applied:',
      ]);
      expect(history.length).toBe(1);
    });

    it('should not fall back after a no-op caused by an abort', async () => {
      const aborted: CompressionStrategy = {
        ...keepNewest('llm'),
        compress: () => Promise.resolve({ type: 'no-op', reason: 'aborted' }),
      };
      const backup = keepNewest('backup');
      const { orchestrator } = setup([aborted, backup], [human(words(95))], {
        settings: { 'compression.fallbackStrategies': ['backup'] },
      });
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.passes.map((pass) => pass.strategy)).toEqual(['llm']);
      expect(backup.calls).toHaveLength(0);
    });

    it('should hand the result to the next strategy when the active one applied but left the request over the threshold', async () => {
      const dropOldest = dropFirst('drop-oldest');
      const backup = keepNewest('backup');
      const entries = [1, 2, 3, 4, 5].map((index) => human(`${index} ${words(19)}`));
      const { history, orchestrator } = setup([dropOldest, backup], entries, {
        settings: { 'compression.fallbackStrategies': ['backup'] },
      });
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.passes.map((pass) => `${pass.strategy}:${pass.outcome}`)).toEqual([
        'drop-oldest:applied',
        'backup:applied',
      ]);
      expect(report.passes[0]?.warnings.map((warning) => warning.type)).toEqual(['fallback']);
      expect(report.passes[1]?.tokensBefore).toBe(report.passes[0]?.tokensAfter);
      expect(backup.calls[0]?.history).toHaveLength(4);
      expect(history.length).toBe(1);
      expect(orchestrator.shouldCompress().compress).toBe(false);
    });

    it('should not run the fallback when the active strategy brought the request under the threshold', async () => {
      const dropOldest = dropFirst('drop-oldest');
      const backup = keepNewest('backup');
      const entries = [1, 2, 3, 4].map((index) => human(`${index} ${words(19)}`));
      const { history, orchestrator } = setup([dropOldest, backup], entries, {
        settings: { 'compression.fallbackStrategies': ['backup'] },
      });
      const report = await orchestrator.ensureCompressionBeforeSend();
      expect(report.passes.map((pass) => `${pass.strategy}:${pass.outcome}`)).toEqual(['drop-oldest:applied']);
      expect(report.passes[0]?.warnings).toEqual([]);
      expect(backup.calls).toHaveLength(0);
      expect(history.length).toBe(3);
    });

    it('should let a fallback make the request fit on the emergency path instead of throwing', async () => {
      const dropOldest = dropFirst('drop-oldest');
      const backup = keepNewest('backup');
      const entries = [1, 2, 3].map((index) => human(`${index} ${words(19)}`));
      const { history, orchestrator } = setup([dropOldest, backup], entries, {
        settings: { 'compression.fallbackStrategies': ['backup'] },
      });
      const report = await orchestrator.enforceContextWindow({ pendingTokens: 60 });
      expect(report.passes.map((pass) => `${pass.strategy}:${pass.outcome}`)).toEqual([
        'drop-oldest:applied',
        'backup:applied',
      ]);
      expect(history.length).toBe(1);
      expect(report.tokensAfter + 60).toBeLessThanOrEqual(100);
    });

    it('should throw CompressionFailedError with every failure when all strategies fail', async () => {
      const first: CompressionStrategy = { ...keepNewest('first'), compress: () => Promise.reject(new Error('one')) };
      const second: CompressionStrategy = { ...keepNewest('second'), compress: () => Promise.reject(new Error('two')) };
      const { history, orchestrator } = setup([first, second], [human(words(95))], {
        settings: { 'compression.fallbackStrategies': ['second'] },
      });
      const error = await orchestrator.ensureCompressionBeforeSend().catch((caught: unknown) => caught);
      expect(CompressionFailedError.isInstance(error)).toBe(true);
      expect((error as CompressionFailedError).failures.map((failure) => failure.strategyName)).toEqual(['first', 'second']);
      expect((error as Error).message).toMatch(/first: one\n {2}second: two/);
      expect(history.length).toBe(1);
    });
  });

  describe('enforceContextWindow', () => {
    it('should compress when the pending message would not fit, even below the threshold', async () => {
      const strategy = keepNewest();
      const { orchestrator } = setup([strategy], [human(words(30)), human(words(30))]);
      const report = await orchestrator.enforceContextWindow({ pendingTokens: 50 });
      expect(report.passes.map((pass) => pass.outcome)).toEqual(['applied']);
      expect(report.tokensAfter).toBe(33);
    });

    it('should also run density optimization on the emergency path', async () => {
      const strategy = pruneStale();
      const { orchestrator } = setup([strategy], [human('stale x')]);
      await orchestrator.enforceContextWindow({ pendingTokens: 0 });
      expect(strategy.optimizeCalls).toBe(1);
    });

    it('should throw ContextWindowExceededError when it still does not fit', async () => {
      const { orchestrator } = setup([keepNewest()], [human(words(80))]);
      const error = await orchestrator.enforceContextWindow({ pendingTokens: 40 }).catch((caught: unknown) => caught);
      expect(ContextWindowExceededError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ projectedTokens: 123, availableTokens: 100 });
    });
  });

  describe('manager role (FR-PA-002)', () => {
    it('should list registered strategies and report effective settings', () => {
      const { orchestrator } = setup([keepNewest('a'), pruneStale()], [], {
        workspaceRoot: '/work',
        settings: { 'compression.density.recencyPruning': true },
      });
      expect(orchestrator.registry.list().map((info) => [info.name, info.optimizes])).toEqual([
        ['a', false],
        ['prune-stale', true],
      ]);
      expect(orchestrator.getEffectiveSettings()).toMatchObject({
        strategy: 'a',
        profile: 'default',
        contextLimit: 100,
        density: { readWritePruning: true, fileDedupe: true, recencyPruning: true, recencyRetention: 3, workspaceRoot: '/work' },
      });
    });

    it('should validate settings updates as a whole and keep the old ones on error', () => {
      const { orchestrator } = setup([keepNewest()], []);
      orchestrator.updateSettings({ 'compression.density.recencyRetention': 5 });
      expect(() => orchestrator.updateSettings({ 'compression.density.recencyRetention': 2.5 })).toThrow(InvalidSettingsError);
      expect(orchestrator.getSettings()['compression.density.recencyRetention']).toBe(5);
    });

    it("should take density settings from the session, else from the strategy's own settings, else spec 000", () => {
      const own: CompressionStrategy = { ...pruneStale(), settings: { recencyPruning: true, recencyRetention: 7 } };
      const { orchestrator } = setup([own], []);
      expect(orchestrator.getEffectiveSettings().density).toMatchObject({
        readWritePruning: true,
        fileDedupe: true,
        recencyPruning: true,
        recencyRetention: 7,
      });
      orchestrator.updateSettings({ 'compression.density.recencyPruning': false, 'compression.density.fileDedupe': false });
      expect(orchestrator.getEffectiveSettings().density).toMatchObject({ fileDedupe: false, recencyPruning: false, recencyRetention: 7 });
    });

    it('should hand out effective settings that no caller can change, and follow the active strategy', () => {
      const own: CompressionStrategy = { ...pruneStale(), settings: { recencyPruning: true, recencyRetention: 7 } };
      const { orchestrator } = setup([keepNewest('a'), own], []);
      const first = orchestrator.getEffectiveSettings();
      expect(() => {
        (first.density as { recencyRetention: number }).recencyRetention = 1;
      }).toThrow(TypeError);
      expect(orchestrator.getEffectiveSettings().density.recencyRetention).toBe(3);
      orchestrator.setActiveStrategy('prune-stale');
      expect(orchestrator.getEffectiveSettings()).toMatchObject({ strategy: 'prune-stale', density: { recencyRetention: 7 } });
    });

    it('should refuse to start without a usable strategy or with a bad context limit', () => {
      expect(() => setup([], [])).toThrow(/no strategy is registered/);
      expect(() => setup([keepNewest()], [], { contextLimit: 0 })).toThrow(/contextLimit: Expected a positive number/);
    });

    it('should hand every report to onReport and render it readably', async () => {
      const reports: string[] = [];
      const { orchestrator } = setup([keepNewest()], [human(words(45)), human(words(45))], {
        onReport: (report) => reports.push(formatTurnReport(report)),
      });
      await orchestrator.ensureCompressionBeforeSend();
      expect(reports).toHaveLength(1);
      expect(reports[0]).toMatch(/threshold 85% from strategy-default/);
      expect(reports[0]).toMatch(/Compression \(keep-newest\): 96 → 48 tokens \(-50%\), 2 → 1 entries/);
    });

    it('should show what a density pass did, by its non-zero operation counts', async () => {
      const reports: string[] = [];
      const { orchestrator } = setup([pruneStale()], [human('stale one'), human('stale two'), human('fresh')], {
        onReport: (report) => reports.push(formatTurnReport(report)),
      });
      await orchestrator.ensureCompressionBeforeSend();
      expect(reports[0]).toMatch(/Density \(prune-stale\): [^\n]*3 → 1 entries[^\n]*\n {3}done: recencyPruned 2\n/);
    });
  });

  it('should pass an empty density result through as a no-op (EC-001)', async () => {
    const strategy = pruneStale();
    strategy.optimize = () => createEmptyDensityResult();
    const { orchestrator } = setup([strategy], []);
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(report.passes[0]?.reason).toBe('nothing-to-optimize');
    expect(formatTurnReport(report)).toMatch(/^Nothing compressed \(threshold 85% from strategy-default\):\n - Density \(prune-stale\): no-op \(nothing-to-optimize\)/);
  });
});
