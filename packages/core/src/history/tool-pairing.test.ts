import { describe, expect, it } from 'vitest';
import { type HistoryEntry } from './history-entry.js';
import {
  describeToolPairingProblem,
  findNewToolPairingProblems,
  findToolPairingProblems,
  type ToolPairingProblem,
} from './tool-pairing.js';

function human(text = 'next task'): HistoryEntry {
  return { speaker: 'human', blocks: [{ type: 'text', text }] };
}

/** An assistant entry calling `grep` once per id (no ids: a text-only answer). */
function ai(...callIds: string[]): HistoryEntry {
  if (callIds.length === 0) return { speaker: 'ai', blocks: [{ type: 'text', text: 'Done.' }] };
  return {
    speaker: 'ai',
    blocks: callIds.map((id) => ({ type: 'tool_call', id, name: 'grep', parameters: { pattern: id } })),
  };
}

/** A tool entry answering each id. */
function tool(...callIds: string[]): HistoryEntry {
  return {
    speaker: 'tool',
    blocks: callIds.map((callId) => ({
      type: 'tool_response',
      callId,
      toolName: 'grep',
      result: `matches for ${callId}`,
    })),
  };
}

describe('findToolPairingProblems', () => {
  it('should return no problems for pair-valid histories', () => {
    expect(findToolPairingProblems([])).toEqual([]);
    expect(findToolPairingProblems([human(), ai()])).toEqual([]);
    expect(findToolPairingProblems([human(), ai('a', 'b'), tool('a', 'b'), ai()])).toEqual([]);
    expect(findToolPairingProblems([human(), ai('a'), tool('a'), ai('b'), tool('b'), ai(), human()])).toEqual([]);
  });

  it('should report an unanswered call at the entry that made it', () => {
    expect(findToolPairingProblems([human(), ai('a', 'b'), tool('a'), ai()])).toEqual([
      { kind: 'unanswered-call', entryIndex: 1, callId: 'b', toolName: 'grep' },
    ]);
  });

  it('should report a call at the end of the history that has no response yet', () => {
    expect(findToolPairingProblems([human(), ai('a')])).toEqual([
      { kind: 'unanswered-call', entryIndex: 1, callId: 'a', toolName: 'grep' },
    ]);
  });

  it('should report an orphan response that answers no call of the preceding turn', () => {
    expect(findToolPairingProblems([human(), ai('a'), tool('a', 'x')])).toEqual([
      { kind: 'orphan-response', entryIndex: 2, callId: 'x', toolName: 'grep' },
    ]);
  });

  it('should report a tool entry at the start of the history as an orphan', () => {
    expect(findToolPairingProblems([tool('a'), human()])).toEqual([
      { kind: 'orphan-response', entryIndex: 0, callId: 'a', toolName: 'grep' },
    ]);
  });

  it('should report a response answering a call of an earlier turn as an orphan', () => {
    const problems = findToolPairingProblems([human(), ai('a'), tool('a'), ai('b'), tool('b', 'a')]);
    expect(problems).toEqual([{ kind: 'orphan-response', entryIndex: 4, callId: 'a', toolName: 'grep' }]);
  });

  it('should report a second response to the same call as a duplicate', () => {
    expect(findToolPairingProblems([human(), ai('a'), tool('a'), tool('a')])).toEqual([
      { kind: 'duplicate-response', entryIndex: 3, callId: 'a', toolName: 'grep' },
    ]);
  });

  it('should report a call id used twice in one assistant turn', () => {
    expect(findToolPairingProblems([human(), ai('a', 'a'), tool('a')])).toEqual([
      { kind: 'duplicate-call-id', entryIndex: 1, callId: 'a', toolName: 'grep' },
    ]);
  });

  it('should report a call id repeated across the ai entries of one turn', () => {
    expect(findToolPairingProblems([human(), ai('a'), ai('a'), tool('a')])).toEqual([
      { kind: 'duplicate-call-id', entryIndex: 2, callId: 'a', toolName: 'grep' },
    ]);
  });

  it('should allow the same call id again in a later turn', () => {
    expect(findToolPairingProblems([human(), ai('a'), tool('a'), ai('a'), tool('a')])).toEqual([]);
  });

  it('should treat consecutive ai entries as one turn (Claude Code splits a turn into several entries)', () => {
    const history = [human(), ai(), ai('a'), ai('b'), tool('a', 'b'), ai()];
    expect(findToolPairingProblems(history)).toEqual([]);
  });

  it('should let consecutive tool entries answer the same turn (OpenAI: one tool message per call)', () => {
    const history = [human(), ai('a', 'b', 'c'), tool('a'), tool('b'), tool('c'), ai()];
    expect(findToolPairingProblems(history)).toEqual([]);
  });

  it('should break pairing when a human entry sits between a call and its response', () => {
    const problems = findToolPairingProblems([human(), ai('a'), human('wait'), tool('a')]);
    expect(problems).toHaveLength(2);
    expect(problems).toContainEqual({ kind: 'unanswered-call', entryIndex: 1, callId: 'a', toolName: 'grep' });
    expect(problems).toContainEqual({ kind: 'orphan-response', entryIndex: 3, callId: 'a', toolName: 'grep' });
  });

  it('should close a turn when the next assistant turn starts after tool entries', () => {
    const problems = findToolPairingProblems([human(), ai('a', 'b'), tool('a'), ai('c'), tool('c', 'b')]);
    expect(problems).toHaveLength(2);
    expect(problems).toContainEqual({ kind: 'unanswered-call', entryIndex: 1, callId: 'b', toolName: 'grep' });
    expect(problems).toContainEqual({ kind: 'orphan-response', entryIndex: 4, callId: 'b', toolName: 'grep' });
  });

  it('should ignore text blocks in tool entries', () => {
    const toolWithNote: HistoryEntry = {
      speaker: 'tool',
      blocks: [
        { type: 'text', text: 'note' },
        { type: 'tool_response', callId: 'a', toolName: 'grep', result: 'ok' },
      ],
    };
    expect(findToolPairingProblems([human(), ai('a'), toolWithNote])).toEqual([]);
  });

  it('should list problems in history order', () => {
    const problems = findToolPairingProblems([
      { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'a', name: 'Read', parameters: {} }] },
      { speaker: 'human', blocks: [{ type: 'text', text: 'interrupting' }] },
      { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'b', toolName: 'Read', result: '' }] },
    ]);
    expect(problems.map((problem) => [problem.kind, problem.entryIndex])).toEqual([
      ['unanswered-call', 0],
      ['orphan-response', 2],
    ]);
  });
});

describe('findNewToolPairingProblems', () => {
  it('should return nothing when the after history is pair-valid', () => {
    expect(findNewToolPairingProblems([human(), ai('a')], [human(), ai()])).toEqual([]);
  });

  it('should report only problems the after history introduced', () => {
    const before = [human(), ai('old'), human(), ai('a'), tool('a')];
    // A strategy that dropped the response to `a` but left the pre-existing unanswered `old` alone.
    const after = [human(), ai('old'), human(), ai('a')];
    expect(findToolPairingProblems(after)).toHaveLength(2);
    expect(findNewToolPairingProblems(before, after)).toEqual([
      { kind: 'unanswered-call', entryIndex: 3, callId: 'a', toolName: 'grep' },
    ]);
  });

  it('should report an orphan created by dropping its call', () => {
    const before = [human(), ai('a'), tool('a'), ai()];
    const after = [human(), tool('a'), ai()];
    expect(findNewToolPairingProblems(before, after)).toEqual([
      { kind: 'orphan-response', entryIndex: 1, callId: 'a', toolName: 'grep' },
    ]);
  });

  it('should not report a problem that only moved to another index', () => {
    const before = [human(), human(), ai('a')];
    const after = [human(), ai('a')];
    expect(findNewToolPairingProblems(before, after)).toEqual([]);
  });
});

describe('describeToolPairingProblem', () => {
  const cases: readonly { readonly problem: ToolPairingProblem; readonly expected: string }[] = [
    {
      problem: { kind: 'unanswered-call', entryIndex: 3, callId: 'toolu_1', toolName: 'read_file' },
      expected: 'entry 3: read_file call toolu_1 has no tool_response in the tool entries that follow it',
    },
    {
      problem: { kind: 'orphan-response', entryIndex: 4, callId: 'toolu_2', toolName: 'bash' },
      expected: 'entry 4: tool_response for bash call toolu_2 does not answer a call of the preceding assistant turn',
    },
    {
      problem: { kind: 'duplicate-response', entryIndex: 5, callId: 'toolu_3', toolName: 'grep' },
      expected: 'entry 5: grep call toolu_3 is answered more than once',
    },
    {
      problem: { kind: 'duplicate-call-id', entryIndex: 6, callId: 'toolu_4', toolName: 'grep' },
      expected: 'entry 6: call id toolu_4 is used twice in one assistant turn',
    },
  ];

  it.each(cases)('should describe $problem.kind in one line naming the entry and call', ({ problem, expected }) => {
    const line = describeToolPairingProblem(problem);
    expect(line).toBe(expected);
    expect(line).not.toContain('\n');
  });
});
