import type { HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { history, human, optimize, read, turn, write } from './test-support/history-fixtures.js';

/** Puts a signed thinking block first in the turn's assistant entry, as Anthropic returns it with thinking on. */
function withThinking(entries: HistoryEntry[]): HistoryEntry[] {
  const [assistant, ...rest] = entries;
  if (assistant === undefined) return entries;
  return [{ ...assistant, blocks: [{ type: 'thinking', thought: 'check the file first', signature: 'sig' }, ...assistant.blocks] }, ...rest];
}

describe('high-density and the turn still in its tool loop (Anthropic tool-loop-thinking)', () => {
  it('should leave the open loop alone while it opened with thinking: a stale read there is pruned only once it closes', () => {
    const open = history(human('fix a'), withThinking(turn(read('r1', '/repo/a.ts'))), turn(write('w1', '/repo/a.ts')));
    const untouched = optimize(open);
    expect(untouched.removals).toEqual([]);
    expect(untouched.replacements.size).toBe(0);
    const closed = history(open, { speaker: 'ai', blocks: [{ type: 'text', text: 'Fixed.' }] }, human('thanks'));
    const pruned = optimize(closed);
    // The read's result goes; its assistant entry stays for the thinking, without the call.
    expect(pruned.removals).toEqual([2]);
    expect(pruned.replacements.get(1)?.blocks.map((block) => block.type)).toEqual(['thinking']);
  });

  it('should still prune inside an open loop whose opening step has no thinking (agent trajectories)', () => {
    const open = history(human('fix a'), turn(read('r1', '/repo/a.ts')), turn(write('w1', '/repo/a.ts')));
    expect(optimize(open).removals).toEqual([1, 2]);
  });
});
