import type { HistoryEntry } from '../history/history-entry.js';
import type { JsonValue } from '../history/json-value.js';

/** Small entry builders for tests: each states its speaker and content in one call. */
export const human = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });

export const ai = (text: string): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'text', text }] });

export const toolCall = (id: string, parameters: JsonValue = { file_path: `/repo/${id}.ts` }, name = 'Read'): HistoryEntry => ({
  speaker: 'ai',
  blocks: [{ type: 'tool_call', id, name, parameters }],
});

export const toolResult = (id: string, result: string, name = 'Read'): HistoryEntry => ({
  speaker: 'tool',
  blocks: [{ type: 'tool_response', callId: id, toolName: name, result }],
});
