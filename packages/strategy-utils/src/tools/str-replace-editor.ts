import { looksLikeFile } from '../path-patterns.js';
import { emptySemantics, type LineRange, type ToolCallSemantics } from '../tool-call-semantics.js';
import { type ParameterObject, readString } from '../tool-parameters.js';

function readViewRange(parameters: ParameterObject): LineRange | undefined {
  const range = parameters['view_range'];
  if (!Array.isArray(range) || range.length === 0) return undefined;
  const [start, end] = range as readonly unknown[];
  if (typeof start !== 'number' || !Number.isInteger(start)) return undefined;
  const first = Math.max(1, start);
  if (typeof end !== 'number' || !Number.isInteger(end) || end < 0) return { start: first };
  return end >= first ? { start: first, end } : { start: first };
}

/**
 * Semantics of the `str_replace_editor` tool (SWE-agent, OpenHands, Anthropic's text editor): `view` reads (a
 * directory-looking path lists two levels deep), `create` writes the whole file, `str_replace`, `insert` and
 * `undo_edit` edit part of it. A missing or unknown `command` gives `other`.
 *
 * @param parameters - The call's parameters as an object, if they are one.
 * @param resolvePath - Normalizes a path from the parameters.
 * @param command - The shell command, when the editor was invoked as a text action.
 */
export function classifyStrReplaceEditor(
  parameters: ParameterObject | undefined,
  resolvePath: (path: string) => string,
  command?: string,
): ToolCallSemantics {
  const editorCommand = readString(parameters, 'command');
  const rawPath = readString(parameters, 'path', 'file_path');
  const path = rawPath === undefined ? undefined : resolvePath(rawPath);
  const base = (kind: ToolCallSemantics['kind']) => emptySemantics(kind, command);
  switch (editorCommand) {
    case 'view': {
      if (path === undefined || parameters === undefined) return base('read');
      if (!looksLikeFile(path)) return { ...base('list'), globs: [path === '/' ? '/**' : `${path}/**`] };
      const lineRange = readViewRange(parameters);
      return { ...base('read'), reads: [lineRange === undefined ? { path, partial: false } : { path, lineRange, partial: true }] };
    }
    case 'create':
      return path === undefined ? base('write') : { ...base('write'), writes: [{ path, partial: false }] };
    case 'str_replace':
    case 'insert':
    case 'undo_edit':
      return path === undefined ? base('edit') : { ...base('edit'), writes: [{ path, partial: true }] };
    default:
      return base('other');
  }
}
