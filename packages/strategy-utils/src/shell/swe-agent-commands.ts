import { joinGlob } from '../path-patterns.js';
import { emptySemantics, type FileAccess, type ToolCallSemantics } from '../tool-call-semantics.js';
import type { JsonValue } from '@ctx/core';
import { classifyStrReplaceEditor } from '../tools/str-replace-editor.js';
import type { ShellWord } from './parse-shell-command.js';

/** SWE-agent's own commands, which it runs in its shell next to ordinary programs. */
export const sweAgentCommandNames: ReadonlySet<string> = new Set([
  'open',
  'goto',
  'scroll_up',
  'scroll_down',
  'create',
  'edit',
  'insert',
  'append',
  'find_file',
  'search_file',
  'search_dir',
  'filemap',
  'str_replace_editor',
  'submit',
  'exit_forfeit',
  'exit_cost',
  'exit_context',
  'exit_format',
]);

/** Where a SWE-agent command runs: the shell's directory and the file its editor has open. */
export interface SweAgentScope {
  readonly cwd: string;
  readonly openFile?: string;
}

function openFileAccess(scope: SweAgentScope, access: Omit<FileAccess, 'path'>): FileAccess[] {
  return scope.openFile === undefined ? [] : [{ path: scope.openFile, ...access }];
}

/** `str_replace_editor view /p --view_range 1 50` as written in SWE-agent's text actions, turned into parameters. */
function editorParameters(args: readonly ShellWord[]): Record<string, JsonValue> {
  const parameters: Record<string, JsonValue> = {};
  const [command, path] = args;
  if (command !== undefined) parameters['command'] = command.text;
  if (path !== undefined) parameters['path'] = path.text;
  const rangeFlag = args.findIndex((word) => word.text === '--view_range');
  if (rangeFlag !== -1) {
    const range = args.slice(rangeFlag + 1, rangeFlag + 3).map((word) => Number(word.text));
    if (range.every((value) => Number.isInteger(value))) parameters['view_range'] = range;
  }
  return parameters;
}

/**
 * Semantics of one SWE-agent command (`open file.py 120`, `edit 10:20`, `create x.py`, `search_dir term`, …) given
 * as the words of its first line; the text after the first line of `edit`/`insert` is the new content.
 *
 * `edit`, `insert`, `append`, `goto` and `scroll_*` act on the file the editor has open: `scope.openFile`, which
 * {@link classifyHistoryToolCalls} tracks from earlier `open`/`create` calls and the `(Open file: …)` line of
 * SWE-agent observations. Without it they are classified with no file.
 *
 * @returns The semantics, or undefined when the first word is not a SWE-agent command.
 */
export function classifySweAgentCommand(
  words: readonly ShellWord[],
  scope: SweAgentScope,
  command: string,
): ToolCallSemantics | undefined {
  const [name, ...args] = words;
  if (name === undefined || !sweAgentCommandNames.has(name.text)) return undefined;
  const resolve = (word: ShellWord | undefined): string | undefined =>
    word === undefined || word.dynamic ? undefined : joinGlob(scope.cwd, word.text);
  const base = (kind: ToolCallSemantics['kind']) => emptySemantics(kind, command);
  switch (name.text) {
    case 'open': {
      const path = resolve(args[0]);
      if (path === undefined) return base('read');
      // The editor shows a window of the file, not all of it.
      return { ...base('read'), reads: [{ path, partial: true }], openedFile: path };
    }
    case 'filemap': {
      const path = resolve(args[0]);
      return path === undefined ? base('read') : { ...base('read'), reads: [{ path, partial: true }] };
    }
    case 'goto':
    case 'scroll_up':
    case 'scroll_down':
      return { ...base('read'), reads: openFileAccess(scope, { partial: true }) };
    case 'create': {
      const path = resolve(args[0]);
      if (path === undefined) return base('write');
      return { ...base('write'), writes: [{ path, partial: false }], openedFile: path };
    }
    case 'edit': {
      const range = /^(\d+):(\d+)$/.exec(args[0]?.text ?? '');
      const lineRange = range === null ? undefined : { start: Number(range[1]), end: Math.max(Number(range[1]), Number(range[2])) };
      return {
        ...base('edit'),
        writes: openFileAccess(scope, lineRange === undefined ? { partial: true } : { lineRange, partial: true }),
      };
    }
    case 'insert':
    case 'append':
      return { ...base('edit'), writes: openFileAccess(scope, { partial: true }) };
    case 'find_file': {
      const directory = resolve(args[1]) ?? scope.cwd;
      const pattern = args[0]?.text;
      return { ...base('list'), globs: [joinGlob(directory, pattern === undefined ? '**' : `**/${pattern}`)] };
    }
    case 'search_file': {
      const path = resolve(args[1]);
      return {
        ...base('search'),
        reads: path === undefined ? openFileAccess(scope, { partial: true }) : [{ path, partial: true }],
      };
    }
    case 'search_dir':
      return { ...base('search'), globs: [joinGlob(resolve(args[1]) ?? scope.cwd, '**')] };
    case 'str_replace_editor':
      return classifyStrReplaceEditor(editorParameters(args), (path) => joinGlob(scope.cwd, path), command);
    default:
      return base('other');
  }
}
