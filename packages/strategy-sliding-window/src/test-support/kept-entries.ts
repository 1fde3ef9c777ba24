import type { HistoryEntry } from '@ctx/core';
import { expect } from 'vitest';

/**
 * Asserts that a kept entry is the input's entry: the same object, or — when the strategy cut oversized tool results
 * to their beginning and end — a tool entry with the same blocks in the same order, answering the same calls, whose
 * changed results carry the cut marker.
 */
export function expectSameOrCut(entry: HistoryEntry | undefined, original: HistoryEntry | undefined, label = ''): void {
  if (entry === original) return;
  expect(entry?.speaker, label).toBe('tool');
  expect(entry?.blocks.map((block) => (block.type === 'tool_response' ? block.callId : block.type)), label).toEqual(
    original?.blocks.map((block) => (block.type === 'tool_response' ? block.callId : block.type)),
  );
  expect(JSON.stringify(entry?.blocks), label).toContain('were cut by ctx to fit the context window');
}
