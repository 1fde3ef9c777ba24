import { parseHistory } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { classifyHistoryToolCalls } from './classify-history-tool-calls.js';
import { createToolSemanticsRegistry } from './tool-semantics-registry.js';
import { answer, call, calls, deepFreeze, human, result } from './test-support/entries.js';

const options = { workspaceRoot: '/repo' };

describe('classifyHistoryToolCalls', () => {
  it('should pair every call with the response of its turn and its outcome', () => {
    const history = deepFreeze([
      human(),
      calls(call('a', 'Read', { file_path: 'a.ts' }), call('b', 'Bash', { command: 'exit 3' })),
      result('a', 'Read', '     1→x'),
      result('b', 'Bash', 'Exit code 3\n', true),
      answer(),
    ]);
    const records = classifyHistoryToolCalls(history, options);
    expect(records.map((record) => [record.entryIndex, record.blockIndex, record.call.id, record.semantics.kind])).toEqual([
      [1, 0, 'a', 'read'],
      [1, 1, 'b', 'shell'],
    ]);
    expect(records.map((record) => [record.response?.entryIndex, record.response?.blockIndex, record.response?.outcome.outcome])).toEqual([
      [2, 0, 'success'],
      [3, 0, 'error'],
    ]);
  });

  it('should leave the response out for an unanswered call and for a response outside the turn', () => {
    const records = classifyHistoryToolCalls([calls(call('a', 'Read', { file_path: 'a.ts' })), human(), result('a', 'Read', 'late')], options);
    expect(records).toHaveLength(1);
    expect(records[0]?.response).toBeUndefined();
  });

  it('should carry the file SWE-agent opened to later edit calls', () => {
    const records = classifyHistoryToolCalls(
      [
        calls(call('1', 'bash', { command: 'open src/x.py 40' })),
        result('1', 'bash', '[File: src/x.py (90 lines total)]'),
        calls(call('2', 'bash', { command: 'edit 41:42\n    return 1\nend_of_edit' })),
        result('2', 'bash', 'File updated.'),
      ],
      options,
    );
    expect(records[1]?.semantics.writes).toEqual([{ path: '/repo/src/x.py', lineRange: { start: 41, end: 42 }, partial: true }]);
  });

  it("should follow the (Open file: …) line of SWE-agent observations, and forget the file on n/a", () => {
    const records = classifyHistoryToolCalls(
      [
        calls(call('1', 'bash', { command: 'ls' })),
        result('1', 'bash', 'a.py\n(Open file: /repo/a.py)\n(Current directory: /repo)\nbash-$'),
        calls(call('2', 'insert', { text: 'x' })),
        result('2', 'insert', 'ok\n(Open file: n/a)'),
        calls(call('3', 'goto', { line_number: 3 })),
      ],
      options,
    );
    expect(records[1]?.semantics.writes).toEqual([{ path: '/repo/a.py', partial: true }]);
    expect(records[2]?.semantics.reads).toEqual([]);
  });

  it('should return nothing for a history without tool calls (EC-003, EC-004)', () => {
    expect(classifyHistoryToolCalls([human(), answer()], options)).toEqual([]);
  });

  describe('on validated histories (semantics kept by block between calls)', () => {
    const opened = (path: string) =>
      parseHistory([calls(call('1', 'bash', { command: `open ${path}` })), result('1', 'bash', `[File: ${path} (90 lines total)]`)]);
    const editing = parseHistory([calls(call('2', 'bash', { command: 'edit 41:42\n    return 1\nend_of_edit' })), result('2', 'bash', 'File updated.')]);

    it('should classify the same call again for another workspace root or another open file', () => {
      const first = classifyHistoryToolCalls([...opened('src/x.py'), ...editing], options);
      expect(first[1]?.semantics.writes).toEqual([{ path: '/repo/src/x.py', lineRange: { start: 41, end: 42 }, partial: true }]);
      const otherFile = classifyHistoryToolCalls([...opened('src/y.py'), ...editing], options);
      expect(otherFile[1]?.semantics.writes).toEqual([{ path: '/repo/src/y.py', lineRange: { start: 41, end: 42 }, partial: true }]);
      const otherRoot = classifyHistoryToolCalls([...opened('src/y.py'), ...editing], { workspaceRoot: '/work' });
      expect(otherRoot[1]?.semantics.writes).toEqual([{ path: '/work/src/y.py', lineRange: { start: 41, end: 42 }, partial: true }]);
    });

    it('should ask a registry passed in every time, so a tool registered later is used', () => {
      const history = parseHistory([calls(call('v', 'view_source', { file: 'a.ts' })), result('v', 'view_source', 'x')]);
      const registry = createToolSemanticsRegistry();
      expect(classifyHistoryToolCalls(history, { ...options, registry })[0]?.semantics.kind).toBe('other');
      registry.register('view_source', (_call, context) => ({ kind: 'read', reads: [{ path: context.resolvePath('a.ts'), partial: false }], writes: [], globs: [] }));
      expect(classifyHistoryToolCalls(history, { ...options, registry })[0]?.semantics.kind).toBe('read');
    });

    it('should judge a response again when another call answers to its id', () => {
      const output = parseHistory([result('b', '', 'Exit code 3\n')]);
      const asRead = classifyHistoryToolCalls([...parseHistory([calls(call('b', 'Read', { file_path: 'a.ts' }))]), ...output], options);
      const asShell = classifyHistoryToolCalls([...parseHistory([calls(call('b', 'Bash', { command: 'exit 3' }))]), ...output], options);
      expect(asShell[0]?.response?.outcome).toMatchObject({ outcome: 'error', exitCode: 3 });
      expect(asRead[0]?.response?.outcome).not.toEqual(asShell[0]?.response?.outcome);
    });
  });
});
