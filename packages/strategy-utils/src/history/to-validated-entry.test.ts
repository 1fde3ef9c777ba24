import type { HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { isValidatedEntry } from './is-validated-entry.js';
import { toValidatedEntry } from './to-validated-entry.js';

describe('toValidatedEntry', () => {
  it('should return a validated copy with the same content, and that copy itself when given it again', () => {
    const built: HistoryEntry = { speaker: 'ai', blocks: [{ type: 'text', text: 'shortened' }] };
    const validated = toValidatedEntry(built);
    expect(validated).toEqual(built);
    expect(isValidatedEntry(validated)).toBe(true);
    expect(toValidatedEntry(validated)).toBe(validated);
  });

  it('should return an invalid entry as it is, for the orchestrator to report', () => {
    const invalid = { speaker: 'human', blocks: [{ type: 'tool_call', id: 'c1', name: 'Read', parameters: {} }] } as unknown as HistoryEntry;
    expect(toValidatedEntry(invalid)).toBe(invalid);
  });
});
