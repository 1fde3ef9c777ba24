import { describe, expect, it } from 'vitest';
import { extractActiveTodos } from './extract-active-todos.js';
import { answer, call, calls, deepFreeze, human, result } from './test-support/entries.js';
import { emptySemantics } from './tool-call-semantics.js';
import { createToolSemanticsRegistry } from './tool-semantics-registry.js';

describe('extractActiveTodos', () => {
  it('should return undefined when no todo tool wrote a list', () => {
    expect(extractActiveTodos([human(), calls(call('a', 'Read', { file_path: 'a' })), result('a', 'Read', 'x'), answer()])).toBeUndefined();
  });

  it('should return the latest Claude Code TodoWrite list, keeping activeForm', () => {
    const history = deepFreeze([
      calls(call('1', 'TodoWrite', { todos: [{ content: 'Old', status: 'pending', activeForm: 'Doing old' }] })),
      result('1', 'TodoWrite', 'Todos have been modified successfully.'),
      calls(
        call('2', 'TodoWrite', {
          todos: [
            { content: 'Write tests', status: 'completed', activeForm: 'Writing tests' },
            { content: 'Fix bug', status: 'in_progress', activeForm: 'Fixing bug' },
          ],
        }),
      ),
      result('2', 'TodoWrite', 'Todos have been modified successfully.'),
    ]);
    expect(extractActiveTodos(history)).toEqual([
      { content: 'Write tests', status: 'completed', activeForm: 'Writing tests' },
      { content: 'Fix bug', status: 'in_progress', activeForm: 'Fixing bug' },
    ]);
  });

  it('should skip a todo whose status is no status it knows, names every object has included', () => {
    const statuses = ['blocked', 'constructor', 'toString', '__proto__'];
    const history = [calls(call('1', 'TodoWrite', { todos: [...statuses.map((status) => ({ content: status, status })), { content: 'A', status: 'done' }] }))];
    expect(extractActiveTodos(history)).toEqual([{ content: 'A', status: 'completed' }]);
  });

  it('should keep the id and priority of older Claude Code todos', () => {
    const history = [calls(call('1', 'TodoWrite', { todos: [{ content: 'A', status: 'pending', priority: 'high', id: '1' }] }))];
    expect(extractActiveTodos(history)).toEqual([{ content: 'A', status: 'pending', priority: 'high', id: '1' }]);
  });

  it('should skip a todo call whose response is an error', () => {
    const history = [
      calls(call('1', 'TodoWrite', { todos: [{ content: 'Kept', status: 'pending' }] })),
      result('1', 'TodoWrite', 'ok'),
      calls(call('2', 'TodoWrite', { todos: [{ content: 'Rejected', status: 'bogus-state' }] })),
      result('2', 'TodoWrite', '<tool_use_error>InputValidationError</tool_use_error>', true),
    ];
    expect(extractActiveTodos(history)).toEqual([{ content: 'Kept', status: 'pending' }]);
  });

  it('should map gemini-cli write_todos descriptions and keep cancelled items as cancelled', () => {
    const history = [
      calls(
        call('1', 'write_todos', {
          todos: [
            { description: 'Plan', status: 'completed' },
            { description: 'Dropped idea', status: 'cancelled' },
            { description: 'Build', status: 'in_progress' },
          ],
        }),
      ),
    ];
    expect(extractActiveTodos(history)).toEqual([
      { content: 'Plan', status: 'completed' },
      { content: 'Dropped idea', status: 'cancelled' },
      { content: 'Build', status: 'in_progress' },
    ]);
  });

  it('should map OpenHands task_tracker and Codex update_plan lists', () => {
    expect(extractActiveTodos([calls(call('1', 'task_tracker', { command: 'plan', task_list: [{ id: 't1', title: 'Fix', status: 'todo' }] }))])).toEqual([
      { content: 'Fix', status: 'pending', id: 't1' },
    ]);
    expect(extractActiveTodos([calls(call('1', 'update_plan', { plan: [{ step: 'Ship', status: 'done' }] }))])).toEqual([{ content: 'Ship', status: 'completed' }]);
  });

  it('should return an empty list when the agent cleared its list', () => {
    expect(extractActiveTodos([calls(call('1', 'TodoWrite', { todos: [{ content: 'A', status: 'pending' }] })), calls(call('2', 'TodoWrite', { todos: [] }))])).toEqual([]);
  });

  it('should ignore lists passed to tools that are not todo tools, unless a registry says they are', () => {
    const history = [calls(call('1', 'my_planner', { todos: [{ content: 'A', status: 'pending' }] }))];
    expect(extractActiveTodos(history)).toBeUndefined();
    const registry = createToolSemanticsRegistry();
    registry.register('my_planner', () => emptySemantics('todo'));
    expect(extractActiveTodos(history, { registry })).toEqual([{ content: 'A', status: 'pending' }]);
  });
});
