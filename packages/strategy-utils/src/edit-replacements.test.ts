import type { ToolCallBlock } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { applyEditReplacement, editReplacementsOf } from './edit-replacements.js';

function call(name: string, parameters: ToolCallBlock['parameters']): ToolCallBlock {
  return { type: 'tool_call', id: 'call-1', name, parameters };
}

describe('editReplacementsOf', () => {
  it('should read Claude Code Edit, gemini-cli replace, str_replace_editor and MultiEdit parameters', () => {
    expect(editReplacementsOf(call('Edit', { file_path: '/a.ts', old_string: 'a', new_string: 'b', replace_all: true }))).toEqual([
      { oldText: 'a', newText: 'b', all: true },
    ]);
    expect(editReplacementsOf(call('replace', { file_path: '/a.ts', old_string: 'a', new_string: 'b', expected_replacements: 2 }))).toEqual([
      { oldText: 'a', newText: 'b', all: true },
    ]);
    expect(editReplacementsOf(call('str_replace_editor', { command: 'str_replace', path: '/a.ts', old_str: 'a' }))).toEqual([
      { oldText: 'a', newText: '', all: false },
    ]);
    expect(
      editReplacementsOf(call('MultiEdit', { file_path: '/a.ts', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd' }] })),
    ).toHaveLength(2);
  });

  it('should refuse calls that are not text replacements', () => {
    expect(editReplacementsOf(call('str_replace_editor', { command: 'insert', path: '/a.ts', new_str: 'x', insert_line: 3 }))).toBeUndefined();
    expect(editReplacementsOf(call('Edit', { file_path: '/a.ts', old_string: '', new_string: 'b' }))).toBeUndefined();
    expect(editReplacementsOf(call('MultiEdit', { file_path: '/a.ts', edits: [{ old_string: 'a', new_string: 'b' }, { nope: 1 }] }))).toBeUndefined();
    expect(editReplacementsOf(call('Edit', 'not an object'))).toBeUndefined();
  });
});

describe('applyEditReplacement', () => {
  it('should replace a unique match, every match with all, and refuse a missing or ambiguous one', () => {
    expect(applyEditReplacement('let a = 1;', { oldText: 'a = 1', newText: 'a = 2', all: false })).toBe('let a = 2;');
    expect(applyEditReplacement('x x x', { oldText: 'x', newText: 'y', all: true })).toBe('y y y');
    expect(applyEditReplacement('abc', { oldText: 'z', newText: 'y', all: false })).toBeUndefined();
    expect(applyEditReplacement('x x', { oldText: 'x', newText: 'y', all: false })).toBeUndefined();
    // Overlapping matches are ambiguous too: the editing tools would have refused.
    expect(applyEditReplacement('aaa', { oldText: 'aa', newText: 'b', all: false })).toBeUndefined();
  });
});
