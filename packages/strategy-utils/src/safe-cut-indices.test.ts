import { findNewToolPairingProblems, type HistoryEntry } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSafeCutIndices, isSafeCutIndex } from './safe-cut-indices.js';
import { answer, call, calls, human, result } from './test-support/entries.js';

const history = [human(), calls(call('a', 'Read', {})), calls(call('b', 'Read', {})), result('a', 'Read', 'x'), result('b', 'Read', 'y'), answer(), human()];

/** Pair-valid histories: human prompts and assistant turns whose parallel calls are all answered. */
const pairValidHistory = fc
  .array(fc.oneof(fc.constant<'human'>('human'), fc.integer({ min: 0, max: 3 }), fc.constant<'split'>('split')), { maxLength: 12 })
  .map((steps) => {
    const entries: HistoryEntry[] = [];
    steps.forEach((step, index) => {
      if (step === 'human') entries.push(human());
      else if (step === 'split') entries.push(answer('thinking aloud'), calls(call(`s${index}`, 'Read', {})), result(`s${index}`, 'Read', 'x'));
      else if (step === 0) entries.push(answer());
      else {
        const ids = Array.from({ length: step }, (_, position) => `c${index}-${position}`);
        entries.push(calls(...ids.map((id) => call(id, 'Read', {}))), ...ids.map((id) => result(id, 'Read', 'x')));
      }
    });
    return entries;
  });

describe('isSafeCutIndex', () => {
  it('should allow cuts before human entries and before the first ai entry of a turn', () => {
    expect([0, 1, 5, 6, 7].map((index) => isSafeCutIndex(history, index))).toEqual([true, true, true, true, true]);
  });

  it('should forbid cuts before tool entries and inside a run of ai entries', () => {
    expect([2, 3, 4].map((index) => isSafeCutIndex(history, index))).toEqual([false, false, false]);
  });

  it('should reject indices outside 0..length and non-integers', () => {
    expect([-1, 8, 1.5, Number.NaN].map((index) => isSafeCutIndex(history, index))).toEqual([false, false, false, false]);
  });
});

describe('findSafeCutIndices', () => {
  it('should list every safe index, ends included', () => {
    expect(findSafeCutIndices(history)).toEqual([0, 1, 5, 6, 7]);
  });

  it('should only return cuts after which both parts keep every call with its response', () => {
    fc.assert(
      fc.property(pairValidHistory, (entries) => {
        for (const index of findSafeCutIndices(entries)) {
          expect(findNewToolPairingProblems(entries, entries.slice(index))).toEqual([]);
          expect(findNewToolPairingProblems(entries, entries.slice(0, index))).toEqual([]);
        }
      }),
    );
  });
});
