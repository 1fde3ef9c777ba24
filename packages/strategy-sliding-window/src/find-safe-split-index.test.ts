import { createSyntheticHistory } from '@ctx/conformance';
import { findToolPairingProblems, type HistoryEntry } from '@ctx/core';
import { isSafeCutIndex } from '@ctx/strategy-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSafeSplitIndex } from './find-safe-split-index.js';
import { aiText, call, human, result, toolOnlyConversation } from './test-support/entries.js';
import { propertyRuns } from '@ctx/test-properties';

// spec 002's mixed conversation: [user hello, model "let me check", model call, user response, model text, user].
const mixed: HistoryEntry[] = [
  human('hello'),
  aiText('let me search'),
  call('search'),
  result('search'),
  aiText('here are the results'),
  human('thanks'),
];

describe('findSafeSplitIndex', () => {
  it('spec 002 all-tool: should never return 0 for an all-tool conversation, whatever the candidate', () => {
    const history = toolOnlyConversation(10);
    for (let candidate = -3; candidate <= history.length + 2; candidate++) {
      const split = findSafeSplitIndex(history, candidate);
      expect(split, `candidate ${candidate}`).toBeDefined();
      expect(split?.index, `candidate ${candidate}`).toBeGreaterThanOrEqual(1);
      expect(split?.index, `candidate ${candidate}`).toBeLessThan(history.length);
    }
  });

  it('spec 002 floor: should floor at index 1 and report it when the candidate asks to compact nothing', () => {
    const history = toolOnlyConversation(5);
    expect(findSafeSplitIndex(history, 1)).toMatchObject({ index: 2, floorHit: false });
    // Candidate 0 (recentKeep ≥ length): raised to 1, which is inside the first pair, so the forward walk ends at 2.
    expect(findSafeSplitIndex(history, 0)).toEqual({ index: 2, walk: 'pair-seam', floorHit: true });
    expect(findSafeSplitIndex(history, -7)).toEqual({ index: 2, walk: 'pair-seam', floorHit: true });
    // In a mixed conversation the floor itself can be a clean boundary.
    expect(findSafeSplitIndex(mixed, 0)).toEqual({ index: 1, walk: 'text-boundary', floorHit: true });
  });

  it('spec 002 Proposal 1: should walk forward to the seam between two complete pairs when the backward walk finds no text', () => {
    const history = toolOnlyConversation(5); // pairs at [0,1], [2,3], [4,5], …
    const split = findSafeSplitIndex(history, 3);
    expect(split).toEqual({ index: 4, walk: 'pair-seam', floorHit: false });
    expect((split?.index ?? 1) % 2).toBe(0);
  });

  it('spec 002 Proposal 1: should still walk back to a clean text boundary in a mixed conversation', () => {
    // Candidate 3 is the tool result; 2 continues the assistant turn; 1 opens it with text.
    expect(findSafeSplitIndex(mixed, 3)).toEqual({ index: 1, walk: 'text-boundary', floorHit: false });
    expect(findSafeSplitIndex(mixed, 2)?.index).toBe(1);
    // Candidates on a clean boundary stay where they are.
    expect(findSafeSplitIndex(mixed, 4)?.index).toBe(4);
    expect(findSafeSplitIndex(mixed, 5)?.index).toBe(5);
  });

  it('spec 002 Proposal 1: should skip complete pairs forward but stop before a later text message', () => {
    const history = [...toolOnlyConversation(3), human('done')];
    const split = findSafeSplitIndex(history, 1);
    expect(split?.index).toBeGreaterThanOrEqual(2);
    expect(split?.index).toBeLessThanOrEqual(6);
    expect(split).toEqual({ index: 2, walk: 'pair-seam', floorHit: false });
  });

  it('should take the nearest earlier seam when the candidate falls in the newest pair, keeping the floor of one compacted entry', () => {
    const history = toolOnlyConversation(4);
    // Candidate 7 is the newest result: nothing safe after it, so the seam before its call (6) is used.
    expect(findSafeSplitIndex(history, 7)).toEqual({ index: 6, walk: 'earlier-pair-seam', floorHit: false });
    expect(findSafeSplitIndex(history, 100)).toEqual({ index: 6, walk: 'earlier-pair-seam', floorHit: false });
  });

  it('should return undefined when no pair-safe split compacts an entry and keeps the newest one', () => {
    expect(findSafeSplitIndex([], 0)).toBeUndefined();
    expect(findSafeSplitIndex([human('only')], 0)).toBeUndefined();
    expect(findSafeSplitIndex([call('a'), result('a')], 1)).toBeUndefined();
    // A parallel batch answered by two tool entries cannot be split either.
    const batch: HistoryEntry = {
      speaker: 'ai',
      blocks: [
        { type: 'tool_call', id: 'x', name: 'Read', parameters: 'x' },
        { type: 'tool_call', id: 'y', name: 'Read', parameters: 'y' },
      ],
    };
    expect(findSafeSplitIndex([batch, result('x'), result('y')], 2)).toBeUndefined();
  });

  it('should never split one assistant turn stored as several ai entries (Claude Code)', () => {
    // [human, ai text, ai call b, ai call c, tool b, tool c, human]: only 1 and 6 are safe inside.
    const history = [human('go'), aiText('looking'), call('b'), call('c'), result('b'), result('c'), human('next')];
    for (let candidate = 1; candidate < history.length; candidate++) {
      const split = findSafeSplitIndex(history, candidate);
      expect([1, 6], `candidate ${candidate}`).toContain(split?.index);
      expect(findToolPairingProblems(history.slice(split?.index))).toEqual([]);
    }
  });

  it('should only accept splits after `after`, treating a backward walk that falls back to it as having found nothing', () => {
    const history = [human('task'), ...toolOnlyConversation(4)]; // the only text boundary is index 0, below the floor
    expect(findSafeSplitIndex(history, 4)).toEqual({ index: 5, walk: 'pair-seam', floorHit: false });
    const withText = [human('task'), call('a'), result('a'), human('more'), call('b'), result('b'), call('c'), result('c')];
    expect(findSafeSplitIndex(withText, 5)).toEqual({ index: 3, walk: 'text-boundary', floorHit: false });
    expect(findSafeSplitIndex(withText, 5, { after: 3 })).toEqual({ index: 6, walk: 'pair-seam', floorHit: false });
    expect(findSafeSplitIndex(withText, 7, { after: 6 })).toBeUndefined();
  });

  it('should always return a pair-safe split in range on generated agent sessions', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 1, max: 500 }), fc.integer({ min: -5, max: 130 }), (entries, seed, candidate) => {
        const history = createSyntheticHistory({ entries, seed });
        const split = findSafeSplitIndex(history, candidate);
        if (split === undefined) {
          // Only when no index in 1…length−1 is safe.
          for (let index = 1; index < history.length; index++) expect(isSafeCutIndex(history, index)).toBe(false);
          return;
        }
        expect(split.index).toBeGreaterThanOrEqual(1);
        expect(split.index).toBeLessThan(history.length);
        expect(isSafeCutIndex(history, split.index)).toBe(true);
        expect(split.floorHit).toBe(candidate < 1);
        if (split.walk === 'pair-seam') expect(split.index).toBeGreaterThanOrEqual(Math.min(candidate, history.length - 1));
        else expect(split.index).toBeLessThanOrEqual(Math.max(1, candidate));
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
