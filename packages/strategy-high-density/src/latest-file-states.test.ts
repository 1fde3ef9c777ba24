import type { HistoryEntry, ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import { classifyToolCall, classifyToolResult } from '@ctx/strategy-utils';
import { describe, expect, it } from 'vitest';
import { LatestFileStates } from './latest-file-states.js';
import { edit, exchange, history, read, turn, write } from './test-support/history-fixtures.js';

/** The call ids whose results hold a latest file state, with the files they hold. */
function holdersOf(entries: readonly HistoryEntry[]): Record<string, string[]> {
  const states = new LatestFileStates();
  const calls = new Map<string, ToolCallBlock>();
  for (const entry of entries) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') calls.set(block.id, block);
      if (block.type !== 'tool_response') continue;
      const call = calls.get(block.callId) as ToolCallBlock;
      states.record(call, classifyToolCall(call, { workspaceRoot: '/repo' }), block, classifyToolResult(block, call));
    }
  }
  return Object.fromEntries([...states.holders()].map(([response, paths]: [ToolResponseBlock, string[]]) => [response.callId, paths]));
}

describe('LatestFileStates', () => {
  it('should name the last whole-file read of each file', () => {
    const entries = history(turn(read('r1', '/repo/a.ts'), read('r2', '/repo/b.ts')), turn(read('r3', '/repo/a.ts')));
    expect(holdersOf(entries)).toEqual({ r2: ['/repo/b.ts'], r3: ['/repo/a.ts'] });
  });

  it('should keep the whole-file read when a ranged read came later but the file did not change', () => {
    const ranged = exchange('r2', 'Read', { file_path: '/repo/a.ts', offset: 1, limit: 5 }, 'line 1');
    expect(holdersOf(history(turn(read('r1', '/repo/a.ts')), turn(ranged)))).toEqual({ r1: ['/repo/a.ts'] });
  });

  it('should also name a ranged read made after an edit, the edit being a call that stays', () => {
    const ranged = exchange('r2', 'Read', { file_path: '/repo/a.ts', offset: 1, limit: 5 }, 'line 1');
    const entries = history(turn(read('r1', '/repo/a.ts')), turn(edit('e1', '/repo/a.ts')), turn(ranged));
    expect(holdersOf(entries)).toEqual({ r1: ['/repo/a.ts'], r2: ['/repo/a.ts'] });
  });

  it('should name no read once a whole-file write said what the file is', () => {
    expect(holdersOf(history(turn(read('r1', '/repo/a.ts')), turn(write('w1', '/repo/a.ts'))))).toEqual({});
  });

  it('should ignore a failed read: the earlier content is still the latest known', () => {
    const failed = exchange('r2', 'Read', { file_path: '/repo/a.ts' }, 'File does not exist.', { isError: true });
    expect(holdersOf(history(turn(read('r1', '/repo/a.ts')), turn(failed)))).toEqual({ r1: ['/repo/a.ts'] });
  });
});
