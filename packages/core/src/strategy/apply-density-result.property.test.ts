import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { parseHistory } from '../history/parse-history.js';
import { findNewToolPairingProblems, findToolPairingProblems } from '../history/tool-pairing.js';
import { pairValidHistory } from '../test-support/history-arbitrary.js';
import { applyDensityResultToHistory } from './apply-density-result.js';

/** A history and an arbitrary (often invalid) density result over it. */
const historyAndEdits = pairValidHistory.chain((history) =>
  fc.record({
    history: fc.constant(history),
    removals: fc.array(fc.integer({ min: -2, max: history.length + 1 }), { maxLength: 6 }),
    replaced: fc.uniqueArray(fc.integer({ min: -1, max: history.length }), { maxLength: 3 }),
  }),
);

describe('applyDensityResultToHistory (properties)', () => {
  it('should either reject with CompressionStrategyError or return exactly the described history, never a pair-breaking one', () => {
    fc.assert(
      fc.property(historyAndEdits, ({ history, removals, replaced }) => {
        const frozen = parseHistory(history);
        const replacements = new Map<number, HistoryEntry>(
          replaced.map((index) => [index, { speaker: 'human', blocks: [{ type: 'text', text: `edited ${index}` }] }]),
        );
        let result: HistoryEntry[];
        try {
          result = applyDensityResultToHistory(frozen, { removals, replacements, metadata: {} });
        } catch (error) {
          expect(CompressionStrategyError.isInstance(error)).toBe(true);
          return;
        }
        const removed = new Set(removals);
        expect(removed.size).toBe(removals.length);
        const expected = frozen.flatMap((entry, index) =>
          removed.has(index) ? [] : [replacements.has(index) ? replacements.get(index) : entry],
        );
        expect(result).toEqual(expected);
        expect(findNewToolPairingProblems(frozen, result)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('should accept removing whole assistant turns with their tool answers', () => {
    fc.assert(
      fc.property(pairValidHistory, fc.integer({ min: 0, max: 1000 }), (history, pick) => {
        const frozen = parseHistory(history);
        expect(findToolPairingProblems(frozen)).toEqual([]);
        // Remove the tool-calling turn that starts at the picked ai entry, with every tool entry after it.
        const starts = frozen.flatMap((entry, index) =>
          entry.speaker === 'ai' && frozen[index - 1]?.speaker !== 'ai' ? [index] : [],
        );
        if (starts.length === 0) return;
        const start = starts[pick % starts.length] as number;
        const removals: number[] = [];
        let index = start;
        while (frozen[index]?.speaker === 'ai') removals.push(index++);
        while (frozen[index]?.speaker === 'tool') removals.push(index++);
        const result = applyDensityResultToHistory(frozen, { removals, replacements: new Map(), metadata: {} });
        expect(result).toHaveLength(frozen.length - removals.length);
      }),
      { numRuns: 200 },
    );
  });
});
