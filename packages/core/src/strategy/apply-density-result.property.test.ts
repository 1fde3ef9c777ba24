import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { parseHistory } from '../history/parse-history.js';
import { findNewToolPairingProblems, findToolPairingProblems } from '../history/tool-pairing.js';
import { pairValidHistory } from '../test-support/history-arbitrary.js';
import { applyDensityResultToHistory } from './apply-density-result.js';
import { propertyRuns } from '@ctx/test-properties';

/** A history and an arbitrary (often invalid) density result over it. */
const historyAndEdits = pairValidHistory.chain((history) =>
  fc.record({
    history: fc.constant(history),
    removals: fc.array(fc.integer({ min: -2, max: history.length + 1 }), { maxLength: 6 }),
    replaced: fc.uniqueArray(fc.integer({ min: -1, max: history.length }), { maxLength: 3 }),
  }),
);

/** One entry of a history whose pairing may be broken anywhere: call and response ids come from a small pool. */
const looseEntry = fc.oneof(
  fc.constant<HistoryEntry>({ speaker: 'human', blocks: [{ type: 'text', text: 'go on' }] }),
  fc.constant<HistoryEntry>({ speaker: 'ai', blocks: [{ type: 'text', text: 'looking' }] }),
  fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 3 }).map(
    (ids): HistoryEntry => ({ speaker: 'ai', blocks: ids.map((id) => ({ type: 'tool_call', id, name: 'Bash', parameters: {} })) }),
  ),
  fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 3 }).map(
    (ids): HistoryEntry => ({
      speaker: 'tool',
      blocks: ids.map((callId) => ({ type: 'tool_response', callId, toolName: 'Bash', result: 'ok' })),
    }),
  ),
);

/** Pair-valid turns with broken ones mixed in, and edits that replace entries with any kind of entry. */
const looseHistoryAndEdits = fc
  .tuple(pairValidHistory, fc.array(fc.tuple(fc.nat(), looseEntry), { maxLength: 4 }))
  .map(([valid, inserts]) => {
    const history: HistoryEntry[] = [...valid];
    for (const [at, entry] of inserts) history.splice(at % (history.length + 1), 0, entry);
    return history;
  })
  .chain((history) =>
    fc.record({
      history: fc.constant(history),
      removals: fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, history.length - 1) }), { maxLength: 6 }),
      replaced: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: Math.max(0, history.length - 1) }), looseEntry), {
        maxLength: 3,
        selector: ([index]) => index,
      }),
    }),
  );

describe('applyDensityResultToHistory (properties)', () => {
  it('should refuse a result exactly when a full scan finds a pairing problem the input did not have', () => {
    fc.assert(
      fc.property(looseHistoryAndEdits, ({ history, removals, replaced }) => {
        const frozen = parseHistory(history);
        const removed = new Set(removals);
        const replacements = new Map(replaced.filter(([index]) => !removed.has(index) && index < frozen.length));
        const validRemovals = removals.filter((index) => index < frozen.length);
        const expected = frozen.flatMap((entry, index) =>
          removed.has(index) ? [] : [replacements.get(index) ?? entry],
        );
        const breaksPairing = findNewToolPairingProblems(frozen, expected).length > 0;
        let refused = false;
        try {
          applyDensityResultToHistory(frozen, { removals: validRemovals, replacements, metadata: {} });
        } catch (error) {
          expect(CompressionStrategyError.isInstance(error)).toBe(true);
          refused = true;
        }
        expect(refused).toBe(breaksPairing);
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

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
      { numRuns: propertyRuns(300) },
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
      { numRuns: propertyRuns(200) },
    );
  });
});
