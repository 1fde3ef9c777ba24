import type { ToolCallBlock } from '@ctx/core';
import type { ToolCallSemantics } from '@ctx/strategy-utils';
import type { ReferenceType } from './lossless-record.js';

/** How a reference names the call its source came from. */
export interface SourceDescription {
  readonly type: ReferenceType;
  /** The file, when the source is file content. */
  readonly path?: string;
  /** Short and readable: `Read annotation.ex`, `` bash `git status` ``, `Write schema.ts`. */
  readonly operation: string;
}

const commandExcerptLength = 40;

function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

function excerpt(command: string): string {
  const oneLine = command.replace(/\s+/g, ' ').trim();
  return oneLine.length <= commandExcerptLength ? oneLine : `${oneLine.slice(0, commandExcerptLength - 1)}…`;
}

/**
 * Names a source for a marker and its record: the file base name for calls that read or write a file (the model
 * knows its files by name; the entry index disambiguates), else the command, else the tool name. Sources of other
 * calls are `tool_result`s; content of a file, as read or as written, is `file`.
 *
 * @param call - The call that produced (or, for parameters, holds) the source; undefined for an orphan result.
 * @param semantics - Its classification (`@ctx/strategy-utils`).
 * @returns The reference type, path and operation.
 * @example
 * ```ts
 * describeSourceCall(readCall, classifyToolCall(readCall, { workspaceRoot: '/repo' }));
 * // { type: 'file', path: '/repo/src/a.ts', operation: 'Read a.ts' }
 * ```
 */
export function describeSourceCall(
  call: ToolCallBlock | undefined,
  semantics: ToolCallSemantics | undefined,
): SourceDescription {
  if (call === undefined || semantics === undefined) return { type: 'tool_result', operation: 'tool result' };
  const fileKind = semantics.kind === 'read' || semantics.kind === 'write' || semantics.kind === 'edit';
  const path = semantics.reads[0]?.path ?? semantics.writes[0]?.path;
  if (fileKind && path !== undefined) return { type: 'file', path, operation: `${call.name} ${baseName(path)}` };
  if (semantics.command !== undefined && semantics.command.trim() !== '') {
    return { type: 'tool_result', operation: `${call.name} \`${excerpt(semantics.command)}\`` };
  }
  return { type: 'tool_result', operation: call.name };
}
