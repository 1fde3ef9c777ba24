import { createCharacterTokenizer, createSyntheticHistory } from '@ctx/conformance';
import {
  createCompressionBudget,
  createTokenCounter,
  findNewToolPairingProblems,
  getEntryGenerator,
  getHistoryTokenTarget,
  parseHistory,
  type HistoryEntry,
} from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTopDownTruncationStrategy } from './top-down-truncation-strategy.js';

// The notice the strategy budgets for when a cut falls before an assistant turn (an upper bound on its size).
const noticeUpperBound: HistoryEntry = {
  speaker: 'human',
  blocks: [{ type: 'text', text: '[999999 earlier conversation entries were removed to fit the context window.]' }],
};

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
          // An optional notice (marked as generated), then a suffix of the input: the same objects, the newest included.
          const notice = getEntryGenerator(outcome.newHistory[0] as HistoryEntry) === undefined ? 0 : 1;
          const kept = outcome.newHistory.slice(notice);
          if (notice === 1) expect(kept[0]?.speaker).not.toBe('human');
          expect(kept.length).toBeGreaterThanOrEqual(Math.min(minEntriesKept, history.length));
          const suffix = history.slice(history.length - kept.length);
          const resultCuts = outcome.metadata.counts?.toolResultsCut ?? 0;
          // Kept entries are the same objects, except tool entries whose results were cut to their beginning and end.
          kept.forEach((entry, index) => {
            const original = suffix[index] as HistoryEntry;
            if (entry === original) return;
            expect(resultCuts).toBeGreaterThan(0);
            expect(entry.speaker).toBe('tool');
            expect(entry.blocks.map((block) => block.type)).toEqual(original.blocks.map((block) => block.type));
            expect(JSON.stringify(entry.blocks)).toContain('were cut by ctx to fit the context window');
          });
          if (resultCuts === 0) expect(kept.at(-1)).toBe(history.at(-1));
          expect(findNewToolPairingProblems(history, kept)).toEqual([]);
          const keptTokens = tokenCounter.countEntries(outcome.newHistory);
          expect(keptTokens).toBeLessThan(tokens);
          const target = getHistoryTokenTarget(budget);
          if (keptTokens > target) {
            expect(outcome.warnings?.some((warning) => warning.type === 'target-not-met')).toBe(true);
            return;
          }
          if (resultCuts > 0) return;
          // Just enough: the previous safe cut point (a turn start) would not have met the target.
          const isTurnStart = (index: number) =>
            history[index]?.speaker === 'human' || (history[index]?.speaker === 'ai' && history[index - 1]?.speaker !== 'ai');
          const cut = history.length - kept.length;
          let previous = cut - 1;
          while (previous >= 1 && !isTurnStart(previous)) previous -= 1;
          if (previous >= 1) {
            const noticeTokens = history[previous]?.speaker === 'human' ? 0 : tokenCounter.countEntry(noticeUpperBound);
            expect(tokenCounter.countEntries(history.slice(previous)) + noticeTokens).toBeGreaterThan(target);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
