import type { HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { isSameEntryContent } from './same-entry-content.js';

describe('isSameEntryContent', () => {
  const entry = (text: string, extra: { readonly isError?: boolean } = {}): HistoryEntry => ({
    speaker: 'tool',
    blocks: [{ type: 'tool_response', callId: 'c1', toolName: 'Read', result: [{ type: 'text', text }], ...extra }],
  });

  it('should be true for separately built entries with the same content', () => {
    expect(isSameEntryContent(entry('a\nb'), entry('a\nb'))).toBe(true);
  });

  it('should be false when a nested string, a key or the order of keys differs', () => {
    expect(isSameEntryContent(entry('a\nb'), entry('a\nc'))).toBe(false);
    expect(isSameEntryContent(entry('a'), entry('a', { isError: true }))).toBe(false);
    const reordered = { blocks: entry('a').blocks, speaker: 'tool' } as HistoryEntry;
    expect(isSameEntryContent(entry('a'), reordered)).toBe(false);
    expect(isSameEntryContent(entry('a'), { ...entry('a'), blocks: [] })).toBe(false);
  });
});
