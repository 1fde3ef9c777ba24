import type { ContentBlock, EntryMetadata, HistoryEntry, JsonValue } from '@ctx/core';

/** Small entry builders for hand-written fixtures: each states its speaker and content in one call. */
export const human = (text: string, metadata?: EntryMetadata): HistoryEntry => ({
  speaker: 'human',
  blocks: [{ type: 'text', text }],
  ...(metadata === undefined ? {} : { metadata }),
});

export const ai = (text: string): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'text', text }] });

export const calls = (...blocks: readonly ContentBlock[]): HistoryEntry => ({ speaker: 'ai', blocks });

export const call = (id: string, name: string, parameters: JsonValue): HistoryEntry =>
  calls({ type: 'tool_call', id, name, parameters });

export const results = (...blocks: readonly ContentBlock[]): HistoryEntry => ({ speaker: 'tool', blocks });

export const result = (callId: string, toolName: string, output: JsonValue, isError?: boolean): HistoryEntry =>
  results({ type: 'tool_response', callId, toolName, result: output, ...(isError === undefined ? {} : { isError }) });

/** A Claude Code `Read` call and its numbered result, the way Claude Code shows file content. */
export function read(id: string, path: string, content: string): HistoryEntry[] {
  const numbered = content
    .split('\n')
    .map((line, index) => `${String(index + 1).padStart(6)}→${line}`)
    .join('\n');
  return [call(id, 'Read', { file_path: path }), result(id, 'Read', numbered)];
}

/** A Claude Code `Edit` call and its success message. */
export function edit(id: string, path: string, oldString: string, newString: string): HistoryEntry[] {
  return [
    call(id, 'Edit', { file_path: path, old_string: oldString, new_string: newString }),
    result(id, 'Edit', `The file ${path} has been updated.`),
  ];
}
