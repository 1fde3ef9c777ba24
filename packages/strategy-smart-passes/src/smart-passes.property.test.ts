import { MockSummarizer, createCharacterTokenizer, createTestCompressionContext, randomHistory, resolvePropertyRuns } from '@ctx/conformance';
import { HistoryService, findNewToolPairingProblems, isEmptyDensityResult, parseHistory, type DensityConfig } from '@ctx/core';
import { listUserTexts } from '@ctx/retention';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentOperationConfig, PassConfigInput, SmartPassesSettingsInput } from './smart-passes-settings.js';
import { createSmartPassesStrategy } from './smart-passes-strategy.js';

const densityConfig: DensityConfig = { readWritePruning: true, fileDedupe: true, recencyPruning: false, recencyRetention: 3, workspaceRoot: '/repo' };

const operation: fc.Arbitrary<ContentOperationConfig> = fc.oneof(
  fc.constantFrom<ContentOperationConfig>('keep', 'suppress', 'truncate', 'summarize'),
  fc.record({
    operation: fc.constantFrom('truncate' as const, 'summarize' as const),
    params: fc.record({ truncate: fc.record({ maxChars: fc.integer({ min: 1, max: 300 }), maxLines: fc.integer({ min: 1, max: 8 }), addEllipsis: fc.boolean() }) }),
  }),
);

const selection: fc.Arbitrary<PassConfigInput['selection']> = fc.oneof(
  fc.record({ type: fc.constant('preserve_recent' as const), keepRecentCount: fc.integer({ min: 0, max: 12 }) }),
  fc.record({ type: fc.constant('preserve_percent' as const), keepPercentage: fc.integer({ min: 0, max: 100 }) }),
  fc.record({ type: fc.constant('custom' as const), from: fc.integer({ min: -10, max: 10 }), to: fc.integer({ min: -10, max: 40 }) }, { requiredKeys: ['type'] }),
);

const pass = (id: string): fc.Arbitrary<PassConfigInput> =>
  fc.oneof(
    fc.record({
      id: fc.constant(id),
      name: fc.constant(id),
      selection,
      mode: fc.constant('individual' as const),
      fileContent: fc.constantFrom('all' as const, 'superseded' as const),
      individualConfig: fc.record({
        defaults: fc.record({ messageText: operation, toolParameters: operation, toolResults: operation }),
        keepErrors: fc.boolean(),
      }),
      execution: fc.oneof(
        fc.constant({ type: 'always' as const }),
        fc.record({ type: fc.constant('conditional' as const), condition: fc.record({ tokenThreshold: fc.integer({ min: 0, max: 5_000 }) }) }),
      ),
    }),
    fc.record({
      id: fc.constant(id),
      name: fc.constant(id),
      selection,
      mode: fc.constant('batch' as const),
      batchConfig: fc.record({
        operation: fc.constantFrom('keep' as const, 'summarize' as const),
        summarizationConfig: fc.record({ keepFirst: fc.integer({ min: 0, max: 3 }), keepLast: fc.integer({ min: 0, max: 3 }) }),
      }),
      execution: fc.constant({ type: 'always' as const }),
    }),
  );

const settingsArbitrary: fc.Arbitrary<SmartPassesSettingsInput> = fc
  .integer({ min: 1, max: 3 })
  .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => pass(`pass-${index + 1}`))))
  .map((passes) => ({ trigger: 'continuous' as const, passes }));

describe('createSmartPassesStrategy (properties)', () => {
  it('should keep pairs valid, user text verbatim, never grow, leave the input unchanged and be deterministic', async () => {
    const runs = resolvePropertyRuns();
    let appliedRuns = 0;
    let optimizedRuns = 0;
    await fc.assert(
      fc.asyncProperty(randomHistory, settingsArbitrary, fc.double({ min: 0.05, max: 1.2, noNaN: true }), fc.boolean(), async (raw, settings, windowShare, withSummarizer) => {
        const history = parseHistory(raw);
        const snapshot = structuredClone(history);
        const tokenizer = createCharacterTokenizer();
        const full = createTestCompressionContext({ history, tokenizer });
        const contextLimit = Math.max(1, Math.round(full.budget.contextLimit * windowShare));
        const contextOf = () =>
          createTestCompressionContext({
            history,
            tokenizer,
            contextLimit,
            ...(withSummarizer ? { summarizer: new MockSummarizer((request) => `short ${request.entries.length}`) } : {}),
          });
        const context = contextOf();
        const outcome = await createSmartPassesStrategy(settings).compress(context);
        expect(await createSmartPassesStrategy(settings).compress(contextOf())).toEqual(outcome);
        expect(history).toEqual(snapshot);
        const userTexts = listUserTexts(history).map((userText) => userText.text);
        if (outcome.type === 'applied') {
          appliedRuns++;
          const counter = context.tokenCounter;
          expect(counter.countEntries(outcome.newHistory)).toBeLessThan(counter.countEntries(history));
          expect(findNewToolPairingProblems(history, outcome.newHistory)).toEqual([]);
          for (const { text } of listUserTexts(outcome.newHistory)) expect(userTexts).toContain(text);
        } else {
          expect(['empty-history', 'already-under-target', 'too-few-compressible']).toContain(outcome.reason);
        }

        const strategy = createSmartPassesStrategy(settings);
        const optimized = strategy.optimize?.(history, densityConfig);
        if (optimized === undefined) throw new Error('a continuous strategy implements optimize()');
        expect(strategy.optimize?.(history, densityConfig)).toEqual(optimized);
        if (!isEmptyDensityResult(optimized)) optimizedRuns++;
        const service = new HistoryService({ tokenizer, history });
        await service.applyDensityResult(optimized, strategy.name);
        const output = service.getRawHistory();
        expect(findNewToolPairingProblems(history, output)).toEqual([]);
        expect(context.tokenCounter.countEntries(output)).toBeLessThanOrEqual(context.tokenCounter.countEntries(history));
        expect(listUserTexts(output).map((userText) => userText.text)).toEqual(userTexts);
        expect(isEmptyDensityResult(strategy.optimize?.(output, densityConfig) ?? optimized)).toBe(true);
        expect(history).toEqual(snapshot);
      }),
      { numRuns: runs },
    );
    // The generated cases must exercise the paths that change something, or the properties above prove little. About
    // 60% of cases compress and 17% optimize (measured over many seeds); the floor of 5% sits three standard
    // deviations below the rarer one at 100 runs, so a random seed does not fail it (10% did, once in a few dozen).
    expect(appliedRuns).toBeGreaterThanOrEqual(runs / 20);
    expect(optimizedRuns).toBeGreaterThanOrEqual(runs / 20);
  });
});
