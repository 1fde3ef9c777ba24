import { parseHistory, type HistoryEntry, type ToolResponseBlock } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { withLosslessRecord } from './lossless-record.js';
import { readRecordOnce } from './read-record-once.js';

const response: ToolResponseBlock = { type: 'tool_response', callId: 'c1', toolName: 'Bash', result: 'ok' };

/** A tool entry whose one result carries a valid lossless record. */
function recordedEntry(): HistoryEntry {
  const providerMetadata = withLosslessRecord(response, { version: 1, field: 'result', hash: '0123456789abcdef', references: [] });
  return { speaker: 'tool', blocks: [{ ...response, providerMetadata }] };
}

describe('readRecordOnce', () => {
  it('should read the record of a validated block once and hand out the same reading after', () => {
    const [entry] = parseHistory([
      { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'c1', name: 'Bash', parameters: { command: 'true' } }] },
      recordedEntry(),
    ]).slice(1);
    const block = (entry as HistoryEntry).blocks[0] as ToolResponseBlock;
    const first = readRecordOnce(block, entry as HistoryEntry);
    expect(first.record?.hash).toBe('0123456789abcdef');
    expect(readRecordOnce(block, entry as HistoryEntry)).toBe(first);
  });

  it('should read the record of a block that can still change again each time', () => {
    const entry = recordedEntry();
    const block = entry.blocks[0] as ToolResponseBlock;
    expect(readRecordOnce(block, entry).record?.hash).toBe('0123456789abcdef');
    // The caller's own object, edited in place: the next reading sees the edit.
    const stored = (block.providerMetadata as { ctx: { lossless: { hash: string } } }).ctx.lossless;
    stored.hash = 'not a hash';
    expect(readRecordOnce(block, entry).problem).toMatch(/hash/);
  });
});
