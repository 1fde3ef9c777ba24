import type { HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { selectZones } from './select-zones.js';
import { aiText, call, human, result } from './test-support/entries.js';

describe('selectZones', () => {
  // Runs: [human human] [ai ai] [tool tool] [ai] [human] [ai]
  const history: HistoryEntry[] = [
    human('a'),
    human('b'),
    aiText('c'),
    call('x'),
    result('x', 'r'),
    result('x', 'r'),
    aiText('d'),
    human('e'),
    aiText('f'),
  ];

  it('FR-TR-001: should keep the whole first message (a run of one speaker) in the first zone', () => {
    expect(selectZones(history, 0)).toEqual({ oldStart: 2, oldEnd: 9 });
  });

  it('FR-TR-001: should put the preserveRecentCount newest messages in the recent zone, counting runs of one speaker', () => {
    expect(selectZones(history, 1)).toEqual({ oldStart: 2, oldEnd: 8 });
    expect(selectZones(history, 3)).toEqual({ oldStart: 2, oldEnd: 6 });
    expect(selectZones(history, 4)).toEqual({ oldStart: 2, oldEnd: 4 });
  });

  it('should leave an empty old zone when the first and recent zones cover everything', () => {
    expect(selectZones(history, 5)).toEqual({ oldStart: 2, oldEnd: 2 });
    expect(selectZones(history, 50)).toEqual({ oldStart: 2, oldEnd: 2 });
    expect(selectZones([human('only')], 0)).toEqual({ oldStart: 1, oldEnd: 1 });
    expect(selectZones([], 3)).toEqual({ oldStart: 0, oldEnd: 0 });
  });
});
