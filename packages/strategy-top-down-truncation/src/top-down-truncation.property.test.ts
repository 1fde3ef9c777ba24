import { createCharacterTokenizer, createSyntheticHistory } from '@ctx/conformance';
import {
  createCompressionBudget,
  createTokenCounter,
  findNewToolPairingProblems,
  getHistoryTokenTarget,
  parseHistory,
} from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTopDownTruncationStrategy } from './top-down-truncation-strategy.js';

describe('createTopDownTruncationStrategy (properties)', () => {
  it('should keep a pair-valid suffix with the newest entries that fits the target or says why', async () => {
    const tokenCounter = createTokenCounter(createCharacterTokenizer());
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 250 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.double({ min: 0.05, max: 1.2, noNaN: true }),
        fc.integer({ min: 1, max: 5 }),
        async (entries, seed, windowShare, minEntriesKept) => {
          const history = parseHistory(createSyntheticHistory({ entries, seed }));
          const tokens = tokenCounter.countEntries(history);
          const budget = createCompressionBudget({
            contextLimit: Math.max(1, Math.round(tokens * windowShare)),
            threshold: 0.85,
          });
          const outcome = await createTopDownTruncationStrategy({ minEntriesKept }).compress({
            history,
            system: [],
            tools: [],
            tokenCounter,
            budget,
          });
          if (outcome.type === 'no-op') {
            expect(['empty-history', 'already-under-target', 'too-few-compressible']).toContain(outcome.reason);
            return;
          }
          const kept = outcome.newHistory;
          // A suffix of the input, the same objects, the newest entry included.
          expect(kept.length).toBeGreaterThanOrEqual(Math.min(minEntriesKept, history.length));
          expect(kept).toEqual(history.slice(history.length - kept.length));
          expect(kept.at(-1)).toBe(history.at(-1));
          expect(findNewToolPairingProblems(history, kept)).toEqual([]);
          const keptTokens = tokenCounter.countEntries(kept);
          expect(keptTokens).toBeLessThan(tokens);
          const target = getHistoryTokenTarget(budget);
          if (keptTokens > target) {
            expect(outcome.warnings?.some((warning) => warning.type === 'target-not-met')).toBe(true);
            return;
          }
          // Just enough: the previous safe cut point would not have met the target.
          const cut = history.length - kept.length;
          let previous = cut - 1;
          while (previous >= 1 && history[previous]?.speaker === 'tool') previous -= 1;
          if (previous >= 1) expect(tokenCounter.countEntries(history.slice(previous))).toBeGreaterThan(target);
        },
      ),
      { numRuns: 200 },
    );
  });
});
