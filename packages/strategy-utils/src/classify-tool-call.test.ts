import type { JsonValue, ToolCallBlock } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyToolCall } from './classify-tool-call.js';
import { builtInToolClassifiers } from './tools/built-in-tool-classifiers.js';
import { propertyRuns } from '@ctx/test-properties';

const workspaceRoot = '/repo';
const call = (name: string, parameters: JsonValue): ToolCallBlock => ({ type: 'tool_call', id: 'c1', name, parameters });
const classify = (name: string, parameters: JsonValue, openFile?: string) =>
  classifyToolCall(call(name, parameters), openFile === undefined ? { workspaceRoot } : { workspaceRoot, openFile });

describe('classifyToolCall', () => {
  describe('Claude Code', () => {
    it('should read a whole file with Read', () => {
      expect(classify('Read', { file_path: '/repo/src/a.ts' })).toEqual({
        kind: 'read',
        reads: [{ path: '/repo/src/a.ts', partial: false }],
        writes: [],
        globs: [],
      });
    });

    it('should turn Read offset (1-based first line) and limit into a line range', () => {
      expect(classify('Read', { file_path: 'a.tex', offset: 40, limit: 10 }).reads).toEqual([
        { path: '/repo/a.tex', lineRange: { start: 40, end: 49 }, partial: true },
      ]);
      expect(classify('Read', { file_path: 'a.tex', limit: 5 }).reads).toEqual([{ path: '/repo/a.tex', lineRange: { start: 1, end: 5 }, partial: true }]);
      expect(classify('Read', { file_path: 'a.tex', offset: 100 }).reads).toEqual([{ path: '/repo/a.tex', lineRange: { start: 100 }, partial: true }]);
    });

    it('should write the whole file with Write and edit part of it with Edit, MultiEdit and NotebookEdit', () => {
      expect(classify('Write', { file_path: 'a.ts', content: 'x' })).toMatchObject({ kind: 'write', writes: [{ path: '/repo/a.ts', partial: false }] });
      expect(classify('Edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b' })).toMatchObject({ kind: 'edit', writes: [{ path: '/repo/a.ts', partial: true }] });
      expect(classify('MultiEdit', { file_path: 'a.ts', edits: [] })).toMatchObject({ kind: 'edit', writes: [{ path: '/repo/a.ts', partial: true }] });
      expect(classify('NotebookEdit', { notebook_path: 'n.ipynb', new_source: '' })).toMatchObject({ kind: 'edit', writes: [{ path: '/repo/n.ipynb', partial: true }] });
    });

    it('should classify the command of Bash', () => {
      expect(classify('Bash', { command: 'cat README.md', description: 'Show readme' })).toMatchObject({
        kind: 'read',
        reads: [{ path: '/repo/README.md', partial: false }],
        command: 'cat README.md',
      });
    });

    it('should list with Glob and LS, resolving the pattern against path', () => {
      expect(classify('Glob', { pattern: '**/*.md', path: 'docs' })).toMatchObject({ kind: 'list', globs: ['/repo/docs/**/*.md'] });
      expect(classify('Glob', { pattern: 'src/**/*.ts' })).toMatchObject({ kind: 'list', globs: ['/repo/src/**/*.ts'] });
      expect(classify('LS', { path: '/repo/src' })).toMatchObject({ kind: 'list', globs: ['/repo/src/*'] });
    });

    it('should read a Grep file in part and search a Grep directory as a glob', () => {
      expect(classify('Grep', { pattern: 'x', path: '/repo/a.tex', output_mode: 'content' })).toMatchObject({
        kind: 'search',
        reads: [{ path: '/repo/a.tex', partial: true }],
        globs: [],
      });
      expect(classify('Grep', { pattern: 'x', path: 'src', glob: '*.tex' })).toMatchObject({ kind: 'search', reads: [], globs: ['/repo/src/**/*.tex'] });
      expect(classify('Grep', { pattern: 'x' })).toMatchObject({ globs: ['/repo/**'] });
    });

    it('should know TodoWrite, background shells, sub-agents and web tools', () => {
      expect(['TodoWrite', 'BashOutput', 'KillBash', 'Task', 'WebFetch', 'WebSearch'].map((name) => classify(name, {}).kind)).toEqual([
        'todo',
        'shell',
        'shell',
        'other',
        'other',
        'other',
      ]);
    });
  });

  describe('gemini-cli and llxprt', () => {
    it('should turn read_file offset (0-based) and limit into a 1-based line range', () => {
      expect(classify('read_file', { absolute_path: '/repo/a.py', offset: 0, limit: 50 }).reads).toEqual([
        { path: '/repo/a.py', lineRange: { start: 1, end: 50 }, partial: true },
      ]);
      expect(classify('read_file', { file_path: 'M-Gemini/a.md' }).reads).toEqual([{ path: '/repo/M-Gemini/a.md', partial: false }]);
    });

    it('EC-014: should report read_many_files concrete paths as reads and glob entries as globs', () => {
      expect(classify('read_many_files', { paths: ['src/a.ts', 'src/**/*.test.ts', 'docs/'] })).toEqual({
        kind: 'read',
        reads: [{ path: '/repo/src/a.ts', partial: false }],
        writes: [],
        globs: ['/repo/src/**/*.test.ts', '/repo/docs/**'],
      });
    });

    it('EC-015: should report read_many_files with only concrete paths with no globs', () => {
      expect(classify('read_many_files', { paths: ['a.ts', 'b.ts'] })).toMatchObject({
        reads: [
          { path: '/repo/a.ts', partial: false },
          { path: '/repo/b.ts', partial: false },
        ],
        globs: [],
      });
    });

    it('should report read_many_files include patterns as globs', () => {
      expect(classify('read_many_files', { paths: ['a.ts'], include: ['**/*.md'], exclude: ['**/x.md'] }).globs).toEqual(['/repo/**/*.md']);
    });

    it('should write with write_file and edit with replace, in any path spelling', () => {
      expect(classify('write_file', { file_path: 'a.md', content: '' }).writes).toEqual([{ path: '/repo/a.md', partial: false }]);
      expect(classify('replace', { absolute_path: '/repo/a.md', old_string: 'a', new_string: 'b' }).writes).toEqual([{ path: '/repo/a.md', partial: true }]);
    });

    it('should read and edit llxprt line ranges (1-based, inclusive)', () => {
      expect(classify('read_line_range', { absolute_path: '/repo/a.ts', start_line: 3, end_line: 9 }).reads).toEqual([
        { path: '/repo/a.ts', lineRange: { start: 3, end: 9 }, partial: true },
      ]);
      expect(classify('delete_line_range', { absolute_path: '/repo/a.ts', start_line: 3, end_line: 9 })).toMatchObject({
        kind: 'edit',
        writes: [{ path: '/repo/a.ts', lineRange: { start: 3, end: 9 }, partial: true }],
      });
    });

    it('should list with list_directory and glob, and search with search_file_content', () => {
      expect(classify('list_directory', { dir_path: 'src' }).globs).toEqual(['/repo/src/*']);
      expect(classify('glob', { pattern: '*.py', path: 'lib' }).globs).toEqual(['/repo/lib/*.py']);
      expect(classify('search_file_content', { pattern: 'x', include: '*.ts' })).toMatchObject({ kind: 'search', globs: ['/repo/**/*.ts'] });
    });

    it('should run run_shell_command in its directory', () => {
      expect(classify('run_shell_command', { command: 'cat a.txt', directory: 'pkg' }).reads).toEqual([{ path: '/repo/pkg/a.txt', partial: false }]);
    });

    it('should know write_todos and the web tools', () => {
      expect(['write_todos', 'google_web_search', 'web_fetch', 'save_memory'].map((name) => classify(name, {}).kind)).toEqual(['todo', 'other', 'other', 'other']);
    });
  });

  describe('SWE-agent and OpenHands', () => {
    it('should read with str_replace_editor view, with view_range as line range (-1 = to the end)', () => {
      expect(classify('str_replace_editor', { command: 'view', path: '/repo/a.c' }).reads).toEqual([{ path: '/repo/a.c', partial: false }]);
      expect(classify('str_replace_editor', { command: 'view', path: '/repo/a.c', view_range: [650, 700] }).reads).toEqual([
        { path: '/repo/a.c', lineRange: { start: 650, end: 700 }, partial: true },
      ]);
      expect(classify('str_replace_editor', { command: 'view', path: '/repo/a.c', view_range: [100, -1] }).reads).toEqual([
        { path: '/repo/a.c', lineRange: { start: 100 }, partial: true },
      ]);
    });

    it('should list a directory viewed with str_replace_editor', () => {
      expect(classify('str_replace_editor', { command: 'view', path: '/repo/src' })).toMatchObject({ kind: 'list', globs: ['/repo/src/**'] });
    });

    it('should write with create and edit with str_replace, insert and undo_edit', () => {
      expect(classify('str_replace_editor', { command: 'create', path: 'a.py', file_text: '' }).writes).toEqual([{ path: '/repo/a.py', partial: false }]);
      for (const command of ['str_replace', 'insert', 'undo_edit']) {
        expect(classify('str_replace_editor', { command, path: 'a.py' })).toMatchObject({ kind: 'edit', writes: [{ path: '/repo/a.py', partial: true }] });
      }
    });

    it('should give other to str_replace_editor without a command', () => {
      expect(classify('str_replace_editor', { path: 'a.py' })).toMatchObject({ kind: 'other', reads: [], writes: [] });
    });

    it('should open, create, edit and insert with the SWE-agent function-calling tools', () => {
      expect(classify('open', { path: 'setup.py', line_number: 10 })).toMatchObject({ kind: 'read', reads: [{ path: '/repo/setup.py', partial: true }], openedFile: '/repo/setup.py' });
      expect(classify('create', { filename: 'r.py' })).toMatchObject({ kind: 'write', openedFile: '/repo/r.py' });
      expect(classify('edit', { search: 'a', replace: 'b' }, '/repo/r.py').writes).toEqual([{ path: '/repo/r.py', partial: true }]);
      expect(classify('insert', { text: 'x' }, '/repo/r.py').writes).toEqual([{ path: '/repo/r.py', partial: true }]);
      expect(classify('edit', { search: 'a', replace: 'b' }).writes).toEqual([]);
    });

    it('should run SWE-agent bash, including its own commands given as text actions', () => {
      expect(classify('bash', { command: 'edit 5:7\nnew text\nend_of_edit' }, '/repo/r.py').writes).toEqual([
        { path: '/repo/r.py', lineRange: { start: 5, end: 7 }, partial: true },
      ]);
    });

    it('should classify OpenHands execute_bash commands, but not keystrokes sent to a running command', () => {
      expect(classify('execute_bash', { command: 'ls -l /repo/src' })).toMatchObject({ kind: 'list', globs: ['/repo/src/*'] });
      expect(classify('execute_bash', { command: 'cat a.txt', is_input: 'true' })).toEqual({ kind: 'shell', reads: [], writes: [], globs: [], command: 'cat a.txt' });
    });

    it('should know think, finish and submit', () => {
      expect(['think', 'finish', 'submit'].map((name) => classify(name, {}).kind)).toEqual(['other', 'other', 'other']);
    });
  });

  describe('Codex', () => {
    it('should run the script of a bash -lc argv, and join other argv', () => {
      expect(classify('shell', { command: ['bash', '-lc', 'cat a.rs'], workdir: 'crate' }).reads).toEqual([{ path: '/repo/crate/a.rs', partial: false }]);
      expect(classify('shell', { command: ['sed', '-n', '1,9p', 'a file.rs'] }).reads).toEqual([
        { path: '/repo/a file.rs', lineRange: { start: 1, end: 9 }, partial: true },
      ]);
    });

    it('should edit every file an apply_patch envelope names', () => {
      const input = '*** Begin Patch\n*** Update File: src/a.rs\n@@\n-a\n+b\n*** Add File: src/b.rs\n+x\n*** End Patch';
      expect(classify('apply_patch', { input }).writes).toEqual([
        { path: '/repo/src/a.rs', partial: true },
        { path: '/repo/src/b.rs', partial: true },
      ]);
    });
  });

  describe('unrecognizable parameters', () => {
    it('EC-050: should skip a call whose parameters are null, keeping its kind', () => {
      expect(classify('Read', null)).toEqual({ kind: 'read', reads: [], writes: [], globs: [] });
    });

    it('EC-051: should skip a call whose parameters are a string that is not a JSON object', () => {
      expect(classify('Write', 'a.ts')).toEqual({ kind: 'write', reads: [], writes: [], globs: [] });
    });

    it('should read parameters recorded as a JSON string', () => {
      expect(classify('Read', '{"file_path":"a.ts"}').reads).toEqual([{ path: '/repo/a.ts', partial: false }]);
    });

    it('EC-016: should skip a call without a path key', () => {
      expect(classify('Edit', { old_string: 'a', new_string: 'b' })).toEqual({ kind: 'edit', reads: [], writes: [], globs: [] });
    });

    it('EC-052: should skip an empty file path instead of resolving it to the workspace root', () => {
      expect(classify('Read', { file_path: '' }).reads).toEqual([]);
    });

    it('should give other to unknown tools', () => {
      expect(classify('mcp__db__query', { sql: 'select 1' })).toEqual({ kind: 'other', reads: [], writes: [], globs: [] });
    });

    it('should never throw for any parameters of any built-in tool', () => {
      const names = builtInToolClassifiers.map(([name]) => name);
      fc.assert(
        fc.property(fc.constantFrom(...names), fc.jsonValue(), (name, parameters) => {
          expect(() => classify(name, parameters as JsonValue, '/repo/open.py')).not.toThrow();
        }),
        { numRuns: propertyRuns(500) },
      );
    });
  });
});
