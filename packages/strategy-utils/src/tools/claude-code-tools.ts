import { joinGlob, looksLikeFile } from '../path-patterns.js';
import { emptySemantics, type LineRange } from '../tool-call-semantics.js';
import { asParameterObject, readNumber, readString } from '../tool-parameters.js';
import type { ToolCallClassifier, ToolClassifierContext } from '../tool-semantics-registry.js';
import { fixedKind, writesFile } from './classifier-builders.js';

/** Claude Code `Read`: `offset` is the 1-based first line, `limit` the number of lines. */
function readRange(offset: number | undefined, limit: number | undefined): LineRange | undefined {
  if (offset === undefined && limit === undefined) return undefined;
  const start = Math.max(1, Math.trunc(offset ?? 1));
  return limit === undefined || limit < 1 ? { start } : { start, end: start + Math.trunc(limit) - 1 };
}

const read: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const path = readString(parameters, 'file_path', 'path', 'notebook_path');
  if (path === undefined) return emptySemantics('read');
  const lineRange = readRange(readNumber(parameters, 'offset'), readNumber(parameters, 'limit'));
  const partial = lineRange !== undefined || readString(parameters, 'pages') !== undefined;
  const resolved = context.resolvePath(path);
  return { ...emptySemantics('read'), reads: [lineRange === undefined ? { path: resolved, partial } : { path: resolved, lineRange, partial }] };
};

const bash: ToolCallClassifier = (call, context) => {
  const command = readString(asParameterObject(call.parameters), 'command');
  return command === undefined ? emptySemantics('shell') : context.classifyShellCommand(command);
};

/** The directory a search or listing runs in: the `path` parameter, or the workspace. */
function directoryOf(context: ToolClassifierContext, path: string | undefined): string {
  return path === undefined ? context.workspaceRoot : context.resolvePath(path);
}

const glob: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const pattern = readString(parameters, 'pattern');
  if (pattern === undefined) return emptySemantics('list');
  return { ...emptySemantics('list'), globs: [joinGlob(directoryOf(context, readString(parameters, 'path')), pattern)] };
};

/**
 * Claude Code `Grep`: a `path` that looks like a file is read in part (matching lines); a directory is searched
 * as `dir/**`, narrowed by the `glob` parameter.
 */
const grep: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  if (parameters === undefined) return emptySemantics('search');
  const rawPath = readString(parameters, 'path');
  const filter = readString(parameters, 'glob');
  if (rawPath !== undefined && filter === undefined && looksLikeFile(rawPath)) {
    return { ...emptySemantics('search'), reads: [{ path: context.resolvePath(rawPath), partial: true }] };
  }
  const directory = directoryOf(context, rawPath);
  return { ...emptySemantics('search'), globs: [joinGlob(directory, filter === undefined ? '**' : `**/${filter}`)] };
};

const listDirectory: ToolCallClassifier = (call, context) => {
  const path = readString(asParameterObject(call.parameters), 'path');
  return { ...emptySemantics('list'), globs: [joinGlob(directoryOf(context, path), '*')] };
};

/** Claude Code's tools (names as its session JSONL records them). */
export const claudeCodeToolClassifiers: readonly (readonly [string, ToolCallClassifier])[] = [
  ['Read', read],
  ['NotebookRead', read],
  ['Write', writesFile('write', 'file_path', 'path')],
  ['Edit', writesFile('edit', 'file_path', 'path')],
  ['MultiEdit', writesFile('edit', 'file_path', 'path')],
  ['NotebookEdit', writesFile('edit', 'notebook_path', 'file_path')],
  ['Bash', bash],
  ['BashOutput', fixedKind('shell')],
  ['KillBash', fixedKind('shell')],
  ['KillShell', fixedKind('shell')],
  ['TaskOutput', fixedKind('shell')],
  ['Glob', glob],
  ['Grep', grep],
  ['LS', listDirectory],
  ['TodoWrite', fixedKind('todo')],
  ['TodoRead', fixedKind('todo')],
  ['Task', fixedKind('other')],
  ['Agent', fixedKind('other')],
  ['WebFetch', fixedKind('other')],
  ['WebSearch', fixedKind('other')],
  ['AskUserQuestion', fixedKind('other')],
  ['ExitPlanMode', fixedKind('other')],
  ['EnterPlanMode', fixedKind('other')],
  ['Skill', fixedKind('other')],
  ['SlashCommand', fixedKind('other')],
];
