import type { HistoryEntry, JsonValue, ToolCallBlock } from '@ctx/core';

/** Small entry builders for tests: each states its speaker and content in one call. */
export const human = (text = 'next task'): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });

export const answer = (text = 'Done.'): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'text', text }] });

export const call = (id: string, name: string, parameters: JsonValue): ToolCallBlock => ({ type: 'tool_call', id, name, parameters });

/** An assistant entry making the given calls. */
export const calls = (...blocks: ToolCallBlock[]): HistoryEntry => ({ speaker: 'ai', blocks });

/** A tool entry answering `callId`. */
export const result = (callId: string, toolName: string, output: JsonValue, isError?: boolean): HistoryEntry => ({
  speaker: 'tool',
  blocks: [{ type: 'tool_response', callId, toolName, result: output, ...(isError === undefined ? {} : { isError }) }],
});

/** Deeply freezes a value so tests prove that nothing mutates it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
