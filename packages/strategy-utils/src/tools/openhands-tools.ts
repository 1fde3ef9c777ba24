import { emptySemantics } from '../tool-call-semantics.js';
import { asParameterObject, readNumber, readString } from '../tool-parameters.js';
import type { ToolCallClassifier } from '../tool-semantics-registry.js';
import { fixedKind } from './classifier-builders.js';

/** `execute_bash`: a command, or (`is_input`) keystrokes for a command that is already running. */
const executeBash: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const command = readString(parameters, 'command');
  if (command === undefined) return emptySemantics('shell');
  const isInput = parameters?.['is_input'];
  if (isInput === true || isInput === 'true') return emptySemantics('shell', command);
  return context.classifyShellCommand(command);
};

/** `edit_file` (OpenHands' LLM-based editor): `start`/`end` are 1-based lines, `end: -1` meaning the file's end. */
const editFile: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const path = readString(parameters, 'path', 'file_path');
  if (path === undefined) return emptySemantics('edit');
  const start = readNumber(parameters, 'start');
  const end = readNumber(parameters, 'end');
  const resolved = context.resolvePath(path);
  if (start === undefined || start < 1) return { ...emptySemantics('edit'), writes: [{ path: resolved, partial: true }] };
  const lineRange = end === undefined || end < start ? { start } : { start, end };
  return { ...emptySemantics('edit'), writes: [{ path: resolved, lineRange, partial: true }] };
};

/** OpenHands CodeAct tools (`str_replace_editor` is shared with SWE-agent). */
export const openHandsToolClassifiers: readonly (readonly [string, ToolCallClassifier])[] = [
  ['execute_bash', executeBash],
  ['execute_ipython_cell', fixedKind('shell')],
  ['edit_file', editFile],
  ['task_tracker', fixedKind('todo')],
  ['think', fixedKind('other')],
  ['finish', fixedKind('other')],
  ['browser', fixedKind('other')],
  ['web_read', fixedKind('other')],
  ['fetch', fixedKind('other')],
];
