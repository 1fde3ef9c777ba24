import { joinGlob } from '../path-patterns.js';
import { emptySemantics, type FileAccess } from '../tool-call-semantics.js';
import { asParameterObject, readNumber, readString } from '../tool-parameters.js';
import type { ToolCallClassifier, ToolClassifierContext } from '../tool-semantics-registry.js';
import { fixedKind } from './classifier-builders.js';
import { classifyStrReplaceEditor } from './str-replace-editor.js';

function openFile(context: ToolClassifierContext, access: Omit<FileAccess, 'path'>): FileAccess[] {
  return context.openFile === undefined ? [] : [{ path: context.openFile, ...access }];
}

/** `bash` (SWE-agent, mini-swe-agent, text actions): the command may itself be a SWE-agent command. */
const bash: ToolCallClassifier = (call, context) => {
  const command = readString(asParameterObject(call.parameters), 'command', 'cmd');
  return command === undefined ? emptySemantics('shell') : context.classifyShellCommand(command);
};

const open: ToolCallClassifier = (call, context) => {
  const path = readString(asParameterObject(call.parameters), 'path', 'file_path', 'filename');
  if (path === undefined) return emptySemantics('read');
  const resolved = context.resolvePath(path);
  // SWE-agent's editor shows a window of the file, never promised to be all of it.
  return { ...emptySemantics('read'), reads: [{ path: resolved, partial: true }], openedFile: resolved };
};

const create: ToolCallClassifier = (call, context) => {
  const path = readString(asParameterObject(call.parameters), 'filename', 'path', 'file_path');
  if (path === undefined) return emptySemantics('write');
  const resolved = context.resolvePath(path);
  return { ...emptySemantics('write'), writes: [{ path: resolved, partial: false }], openedFile: resolved };
};

/**
 * `edit`: SWE-agent's windowed editor edits the open file (`search`/`replace`, or `start_line`/`end_line`/
 * `replacement_text`); a call naming a `file_path` or `path` edits that file instead.
 */
const edit: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const path = readString(parameters, 'file_path', 'path', 'absolute_path');
  const start = readNumber(parameters, 'start_line');
  const end = readNumber(parameters, 'end_line');
  const access: Omit<FileAccess, 'path'> =
    start === undefined ? { partial: true } : { lineRange: { start, end: Math.max(start, end ?? start) }, partial: true };
  const writes = path === undefined ? openFile(context, access) : [{ path: context.resolvePath(path), ...access }];
  return { ...emptySemantics('edit'), writes };
};

const insert: ToolCallClassifier = (call, context) => {
  const path = readString(asParameterObject(call.parameters), 'file_path', 'path');
  const writes = path === undefined ? openFile(context, { partial: true }) : [{ path: context.resolvePath(path), partial: true }];
  return { ...emptySemantics('edit'), writes };
};

const moveWindow: ToolCallClassifier = (_call, context) => ({ ...emptySemantics('read'), reads: openFile(context, { partial: true }) });

const findFile: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const name = readString(parameters, 'file_name', 'name');
  const directory = readString(parameters, 'dir', 'directory');
  const root = directory === undefined ? context.workspaceRoot : context.resolvePath(directory);
  return { ...emptySemantics('list'), globs: [joinGlob(root, name === undefined ? '**' : `**/${name}`)] };
};

const searchFile: ToolCallClassifier = (call, context) => {
  const path = readString(asParameterObject(call.parameters), 'file', 'path', 'file_path');
  const reads = path === undefined ? openFile(context, { partial: true }) : [{ path: context.resolvePath(path), partial: true }];
  return { ...emptySemantics('search'), reads };
};

const searchDirectory: ToolCallClassifier = (call, context) => {
  const directory = readString(asParameterObject(call.parameters), 'dir', 'directory', 'path');
  return { ...emptySemantics('search'), globs: [joinGlob(directory === undefined ? context.workspaceRoot : context.resolvePath(directory), '**')] };
};

const filemap: ToolCallClassifier = (call, context) => {
  const path = readString(asParameterObject(call.parameters), 'file_path', 'path');
  return path === undefined ? emptySemantics('read') : { ...emptySemantics('read'), reads: [{ path: context.resolvePath(path), partial: true }] };
};

/** `str_replace_editor` and Anthropic's `str_replace_based_edit_tool` (same parameters). */
export const strReplaceEditor: ToolCallClassifier = (call, context) =>
  classifyStrReplaceEditor(asParameterObject(call.parameters), context.resolvePath);

/** SWE-agent's function-calling tools. */
export const sweAgentToolClassifiers: readonly (readonly [string, ToolCallClassifier])[] = [
  ['bash', bash],
  ['open', open],
  ['create', create],
  ['edit', edit],
  ['insert', insert],
  ['append', insert],
  ['goto', moveWindow],
  ['scroll_up', moveWindow],
  ['scroll_down', moveWindow],
  ['find_file', findFile],
  ['search_file', searchFile],
  ['search_dir', searchDirectory],
  ['filemap', filemap],
  ['str_replace_editor', strReplaceEditor],
  ['str_replace_based_edit_tool', strReplaceEditor],
  ['submit', fixedKind('other')],
  ['exit_forfeit', fixedKind('other')],
];
