import { parseHistory, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../test-support/entries.js';
import { isValidatedEntry } from './is-validated-entry.js';

describe('isValidatedEntry', () => {
  const raw = (): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] });

  it('should accept an entry the history parser validated', () => {
    const [entry] = parseHistory([raw()]);
    expect(isValidatedEntry(entry as HistoryEntry)).toBe(true);
    expect(isValidatedEntry(entry as HistoryEntry)).toBe(true);
  });

  it('should refuse a caller\'s entry, even a deeply frozen one, and an invalid frozen one', () => {
    expect(isValidatedEntry(raw())).toBe(false);
    expect(isValidatedEntry(deepFreeze(raw()))).toBe(false);
    expect(isValidatedEntry(deepFreeze({ speaker: 'robot', blocks: [] } as unknown as HistoryEntry))).toBe(false);
  });
});
