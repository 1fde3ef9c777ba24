import { hasGlobSyntax, joinGlob, looksLikeFile } from '../path-patterns.js';
import { emptySemantics, type FileAccess, type LineRange } from '../tool-call-semantics.js';
import { asParameterObject, readNumber, readString, readStringList } from '../tool-parameters.js';
import type { ToolCallClassifier } from '../tool-semantics-registry.js';
import { fixedKind, writesFile } from './classifier-builders.js';

/** gemini-cli and llxprt name the file `absolute_path` (older), `file_path` (newer) or `path`. */
const filePathKeys = ['file_path', 'absolute_path', 'path'] as const;
/** Directory parameters: `path` (older), `dir_path` (newer). */
const directoryKeys = ['dir_path', 'path', 'directory'] as const;

/** `read_file`: `offset` is the 0-based first line, `limit` the number of lines. */
const readFile: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const path = readString(parameters, ...filePathKeys);
  if (path === undefined) return emptySemantics('read');
  const offset = readNumber(parameters, 'offset');
  const limit = readNumber(parameters, 'limit');
  const resolved = context.resolvePath(path);
  if (offset === undefined && limit === undefined) return { ...emptySemantics('read'), reads: [{ path: resolved, partial: false }] };
  const start = Math.max(0, Math.trunc(offset ?? 0)) + 1;
  const lineRange: LineRange = limit === undefined || limit < 1 ? { start } : { start, end: start + Math.trunc(limit) - 1 };
  return { ...emptySemantics('read'), reads: [{ path: resolved, lineRange, partial: true }] };
};

/** llxprt `read_line_range` / `delete_line_range`: 1-based inclusive `start_line`..`end_line`. */
function lineRangeTool(kind: 'read' | 'edit'): ToolCallClassifier {
  return (call, context) => {
    const parameters = asParameterObject(call.parameters);
    const path = readString(parameters, ...filePathKeys);
    if (path === undefined) return emptySemantics(kind);
    const start = readNumber(parameters, 'start_line', 'line_number');
    const end = readNumber(parameters, 'end_line') ?? (kind === 'edit' ? start : undefined);
    const access: FileAccess =
      start === undefined
        ? { path: context.resolvePath(path), partial: true }
        : {
            path: context.resolvePath(path),
            lineRange: end === undefined ? { start: Math.max(1, start) } : { start: Math.max(1, start), end: Math.max(1, start, end) },
            partial: true,
          };
    return kind === 'read' ? { ...emptySemantics('read'), reads: [access] } : { ...emptySemantics('edit'), writes: [access] };
  };
}

/**
 * `read_many_files`: concrete `paths` are reads; glob entries, directories (`src/`) and `include` patterns are
 * globs, so a strategy can tell them apart (spec 000 EC-014, EC-015). `exclude` only narrows and is ignored.
 */
const readManyFiles: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const reads: FileAccess[] = [];
  const globs: string[] = [];
  for (const entry of readStringList(parameters, 'paths', 'path')) {
    if (hasGlobSyntax(entry)) globs.push(context.resolvePath(entry));
    else if (entry.endsWith('/') || entry.endsWith('\\')) globs.push(joinGlob(context.resolvePath(entry), '**'));
    else reads.push({ path: context.resolvePath(entry), partial: false });
  }
  for (const pattern of readStringList(parameters, 'include')) globs.push(context.resolvePath(pattern));
  return { ...emptySemantics('read'), reads, globs };
};

const listDirectory: ToolCallClassifier = (call, context) => {
  const path = readString(asParameterObject(call.parameters), ...directoryKeys);
  return { ...emptySemantics('list'), globs: [joinGlob(path === undefined ? context.workspaceRoot : context.resolvePath(path), '*')] };
};

const glob: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const pattern = readString(parameters, 'pattern');
  if (pattern === undefined) return emptySemantics('list');
  const directory = readString(parameters, ...directoryKeys);
  return { ...emptySemantics('list'), globs: [joinGlob(directory === undefined ? context.workspaceRoot : context.resolvePath(directory), pattern)] };
};

/** `search_file_content` / `grep_search`: a file-looking path is read in part; a directory is searched as `dir/**`. */
const searchFileContent: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  if (parameters === undefined) return emptySemantics('search');
  const path = readString(parameters, ...directoryKeys);
  const include = readString(parameters, 'include');
  if (path !== undefined && include === undefined && looksLikeFile(path)) {
    return { ...emptySemantics('search'), reads: [{ path: context.resolvePath(path), partial: true }] };
  }
  const directory = path === undefined ? context.workspaceRoot : context.resolvePath(path);
  return { ...emptySemantics('search'), globs: [joinGlob(directory, include === undefined ? '**' : `**/${include}`)] };
};

/** `run_shell_command`: the optional `directory` (relative to the workspace) is where the command starts. */
const runShellCommand: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const command = readString(parameters, 'command');
  if (command === undefined) return emptySemantics('shell');
  const directory = readString(parameters, 'directory', 'dir_path');
  return context.classifyShellCommand(command, directory === undefined ? undefined : { cwd: directory });
};

/** gemini-cli's tools and llxprt's additions (names as its chat recordings store them). */
export const geminiCliToolClassifiers: readonly (readonly [string, ToolCallClassifier])[] = [
  ['read_file', readFile],
  ['read_many_files', readManyFiles],
  ['read_line_range', lineRangeTool('read')],
  ['write_file', writesFile('write', ...filePathKeys)],
  ['replace', writesFile('edit', ...filePathKeys)],
  ['delete_line_range', lineRangeTool('edit')],
  ['insert_at_line', lineRangeTool('edit')],
  ['list_directory', listDirectory],
  ['glob', glob],
  ['search_file_content', searchFileContent],
  ['grep_search', searchFileContent],
  ['run_shell_command', runShellCommand],
  ['write_todos', fixedKind('todo')],
  ['todo_write', fixedKind('todo')],
  ['todo_read', fixedKind('todo')],
  ['todo_pause', fixedKind('todo')],
  ['google_web_search', fixedKind('other')],
  ['web_fetch', fixedKind('other')],
  ['google_web_fetch', fixedKind('other')],
  ['web_search', fixedKind('other')],
  ['save_memory', fixedKind('other')],
  ['task', fixedKind('other')],
  ['list_subagents', fixedKind('other')],
  ['delegate_to_agent', fixedKind('other')],
  ['activate_skill', fixedKind('other')],
  ['ask_user', fixedKind('other')],
  ['get_internal_docs', fixedKind('other')],
  ['enter_plan_mode', fixedKind('other')],
  ['exit_plan_mode', fixedKind('other')],
];
