import { describe, expect, it } from 'vitest';
import { listAssistantTurns } from './assistant-turns.js';
import { answer, call, calls, human, result } from './test-support/entries.js';

describe('listAssistantTurns', () => {
  it('should span each ai run and the tool run answering it', () => {
    const history = [
      human(),
      calls(call('a', 'Read', {})),
      calls(call('b', 'Read', {})),
      result('a', 'Read', 'x'),
      result('b', 'Read', 'y'),
      answer(),
      human(),
    ];
    expect(listAssistantTurns(history)).toEqual([
      { start: 1, toolStart: 3, end: 5, callIds: ['a', 'b'] },
      { start: 5, toolStart: 6, end: 6, callIds: [] },
    ]);
  });

  it('should leave tool entries that follow a human entry out of every turn', () => {
    expect(listAssistantTurns([human(), result('x', 'Read', 'orphan'), answer()])).toEqual([{ start: 2, toolStart: 3, end: 3, callIds: [] }]);
  });

  it('should return no turns for an empty history (EC-001)', () => {
    expect(listAssistantTurns([])).toEqual([]);
  });
});
