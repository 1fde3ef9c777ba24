import { findToolPairingProblems, parseHistory } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { createSyntheticHistory } from './synthetic-history.js';

describe('createSyntheticHistory', () => {
  it('should produce exactly the requested number of valid, pair-valid entries', () => {
    for (const entries of [0, 1, 2, 3, 4, 5, 17, 150, 300, 600]) {
      const history = createSyntheticHistory({ entries, seed: entries });
      expect(history).toHaveLength(entries);
      expect(() => parseHistory(history)).not.toThrow();
      expect(findToolPairingProblems(history)).toEqual([]);
    }
  });

  it('should be deterministic per seed and differ between seeds', () => {
    expect(createSyntheticHistory({ entries: 80, seed: 5 })).toEqual(createSyntheticHistory({ entries: 80, seed: 5 }));
    expect(createSyntheticHistory({ entries: 80, seed: 5 })).not.toEqual(createSyntheticHistory({ entries: 80, seed: 6 }));
  });

  it('should contain parallel calls, failed results and thinking, like real agent sessions', () => {
    const history = createSyntheticHistory({ entries: 300, seed: 1 });
    const blocks = history.flatMap((entry) => entry.blocks);
    expect(history.some((entry) => entry.blocks.filter((block) => block.type === 'tool_call').length > 1)).toBe(true);
    expect(blocks.some((block) => block.type === 'tool_response' && block.isError === true)).toBe(true);
    expect(blocks.some((block) => block.type === 'thinking')).toBe(true);
  });
});
