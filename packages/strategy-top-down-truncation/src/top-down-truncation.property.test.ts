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
import { findFirstUserMessage } from '@ctx/strategy-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTopDownTruncationStrategy } from './top-down-truncation-strategy.js';
import { propertyRuns } from '@ctx/test-properties';

// The notice the strategy budgets for when a cut falls before an assistant turn (an upper bound on its size).
const noticeUpperBound: HistoryEntry = {
  speaker: 'human',
  blocks: [{ type: 'text', text: '[999999 earlier conversation entries were removed to fit the context window.]' }],
};

describe('createTopDownTruncationStrategy (properties)', () => {
  it('should keep the head through the first user message (when pinned) and a pair-valid suffix with the newest entries that fits the target or says why', async () => {
    const tokenCounter = createTokenCounter(createCharacterTokenizer());
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 250 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.double({ min: 0.05, max: 1.2, noNaN: true }),
        fc.integer({ min: 1, max: 5 }),
        fc.boolean(),
        async (entries, seed, windowShare, minEntriesKept, keepFirstUserMessage) => {
          const history = parseHistory(createSyntheticHistory({ entries, seed }));
          const tokens = tokenCounter.countEntries(history);
          const budget = createCompressionBudget({
            contextLimit: Math.max(1, Math.round(tokens * windowShare)),
            threshold: 0.85,
          });
          const outcome = await createTopDownTruncationStrategy({ minEntriesKept, keepFirstUserMessage }).compress({
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
          // A head (the first entries of the input), an optional notice (marked as generated), then a suffix of the
          // input with the newest entry.
          const noticeAt = outcome.newHistory.findIndex((entry) => getEntryGenerator(entry) !== undefined);
          const head = noticeAt === -1 ? [] : outcome.newHistory.slice(0, noticeAt);
          const kept = outcome.newHistory.slice(noticeAt + 1);
          const firstUser = findFirstUserMessage(history);
          const dropped = history.length - head.length - kept.length;
          if (keepFirstUserMessage && firstUser !== undefined && dropped > 0) {
            // Pinned: the first user message is kept, the same object, and a notice stands for what was dropped.
            expect(head.length).toBeGreaterThan(firstUser);
            expect(head[firstUser]).toBe(history[firstUser]);
          } else {
            expect(head).toEqual([]);
            if (noticeAt === 0) expect(kept[0]?.speaker).not.toBe('human');
          }
          expect(kept.length).toBeGreaterThanOrEqual(Math.min(minEntriesKept, history.length));
          const suffix = history.slice(history.length - kept.length);
          const resultCuts = outcome.metadata.counts?.toolResultsCut ?? 0;
          // Kept entries are the same objects, except tool entries whose results were cut to their beginning and end.
          const expectSameOrCut = (entry: HistoryEntry, original: HistoryEntry) => {
            if (entry === original) return;
            expect(resultCuts).toBeGreaterThan(0);
            expect(entry.speaker).toBe('tool');
            expect(entry.blocks.map((block) => block.type)).toEqual(original.blocks.map((block) => block.type));
            expect(JSON.stringify(entry.blocks)).toContain('were cut by ctx to fit the context window');
          };
          head.forEach((entry, index) => expectSameOrCut(entry, history[index] as HistoryEntry));
          kept.forEach((entry, index) => expectSameOrCut(entry, suffix[index] as HistoryEntry));
          if (resultCuts === 0) expect(kept.at(-1)).toBe(history.at(-1));
          expect(findNewToolPairingProblems(history, [...head, ...kept])).toEqual([]);
          const keptTokens = tokenCounter.countEntries(outcome.newHistory);
          expect(keptTokens).toBeLessThan(tokens);
          const target = getHistoryTokenTarget(budget);
          if (keptTokens > target) {
            expect(outcome.warnings?.some((warning) => warning.type === 'target-not-met')).toBe(true);
            return;
          }
          if (resultCuts > 0) return;
          // Just enough: the previous safe cut point after the head (a turn start) would not have met the target.
          const isTurnStart = (index: number) =>
            history[index]?.speaker === 'human' || (history[index]?.speaker === 'ai' && history[index - 1]?.speaker !== 'ai');
          const cut = history.length - kept.length;
          let previous = cut - 1;
          while (previous > head.length && !isTurnStart(previous)) previous -= 1;
          if (previous > head.length || (head.length === 0 && previous >= 1)) {
            const noticeTokens = head.length === 0 && history[previous]?.speaker === 'human' ? 0 : tokenCounter.countEntry(noticeUpperBound);
            const headTokens = tokenCounter.countEntries(head);
            expect(headTokens + tokenCounter.countEntries(history.slice(previous)) + noticeTokens).toBeGreaterThan(target);
          }
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});
