import type { HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { parseClaudeCodeSession } from './claude-code-session-reader.js';
import { convertClaudeCodeSession } from './convert-claude-code-session.js';
import {
  assistant,
  compactBoundary,
  compactSummary,
  compactSystem,
  jsonl,
  text,
  user,
  type FixtureRecord,
} from './test-support/records.js';

const segment = { headUuid: 'u2', anchorUuid: 's1', tailUuid: 'a2' };
const beforeCompaction: FixtureRecord[] = [
  user('u1', null, 'Old question'),
  assistant('a1', 'u1', 'msg_1', text('Old answer')),
  user('u2', 'a1', 'Keep this: rotate the API keys on Friday'),
  assistant('a2', 'u2', 'msg_2', text('Noted, Friday.')),
];
const boundary = (metadata: FixtureRecord = { trigger: 'manual', preTokens: 90_000, preservedSegment: segment }) =>
  compactBoundary('b1', 'a2', metadata);

const texts = (history: readonly HistoryEntry[]) =>
  history.map((entry) => entry.blocks.map((block) => (block.type === 'text' ? block.text.slice(0, 40) : block.type)).join(' '));

const lastEpoch = (records: readonly FixtureRecord[]) => {
  const session = parseClaudeCodeSession(jsonl(records));
  return { session, ...convertClaudeCodeSession(session, { view: 'last-epoch' }) };
};

describe('preserved segments of a partial compaction', () => {
  it('should show the preserved messages after the summary in the last-epoch view when the next record continues from the tail', () => {
    const { conversation, warnings } = lastEpoch([
      ...beforeCompaction,
      boundary(),
      compactSummary('s1', 'b1'),
      user('u3', 'a2', 'New question'),
      assistant('a3', 'u3', 'msg_3', text('New answer')),
    ]);

    expect(texts(conversation.history)).toEqual([
      'This session is being continued from a p',
      'Keep this: rotate the API keys on Friday',
      'Noted, Friday.',
      'New question',
      'New answer',
    ]);
    expect(warnings.filter((warning) => warning.type !== 'lossy' || !warning.message.includes('summary'))).toEqual([]);
  });

  it('should show them too when the records after the compaction hang under the anchor (the summary)', () => {
    const { conversation } = lastEpoch([
      ...beforeCompaction,
      boundary(),
      compactSummary('s1', 'b1'),
      user('u3', 's1', 'New question'),
      assistant('a3', 'u3', 'msg_3', text('New answer')),
    ]);
    expect(texts(conversation.history).slice(1)).toEqual(['Keep this: rotate the API keys on Friday', 'Noted, Friday.', 'New question', 'New answer']);
  });

  it('should list every message once, in file order, in the whole-session view', () => {
    const session = parseClaudeCodeSession(
      jsonl([...beforeCompaction, boundary(), compactSummary('s1', 'b1'), user('u3', 'a2', 'New question')]),
    );
    const { conversation } = convertClaudeCodeSession(session, { view: 'whole-session' });
    expect(texts(conversation.history)).toEqual([
      'Old question',
      'Old answer',
      'Keep this: rotate the API keys on Friday',
      'Noted, Friday.',
      'This session is being continued from a p',
      'New question',
    ]);
    expect(session.orphans).toEqual([]);
  });

  it('should warn when the segment cannot be followed, naming the compaction line', () => {
    const { warnings } = lastEpoch([
      ...beforeCompaction,
      boundary({ trigger: 'manual', preTokens: 90_000, preservedSegment: { ...segment, tailUuid: 'gone' } }),
      compactSummary('s1', 'b1'),
      user('u3', 'a2', 'New question'),
    ]);
    expect(warnings).toContainEqual(
      expect.objectContaining({ type: 'lossy', line: 5, message: expect.stringContaining('its tail is not in the file') as string }),
    );
  });

  it('should warn about compaction metadata the reader does not understand', () => {
    const records = [
      ...beforeCompaction,
      { ...boundary({ trigger: 'auto', preTokens: 1, futureField: true }), snipMetadata: { removedUuids: ['a1'] } },
      compactSummary('s1', 'b1'),
    ];
    const { session } = lastEpoch(records);
    const unsupported = session.warnings.filter((warning) => warning.type === 'unsupported').map((warning) => warning.message);
    expect(unsupported).toEqual([
      expect.stringContaining('compactMetadata.futureField not understood'),
      expect.stringContaining('snipMetadata not understood'),
    ]);
  });

  it('should keep the last N messages of spec 001 `preservedMessages: N` before the new root in the last-epoch view', () => {
    const { conversation } = lastEpoch([
      ...beforeCompaction,
      compactSystem('conversation_compacting'),
      compactSystem('conversation_compacted', { metadata: { preservedMessages: 2, totalMessages: 4 } }),
      user('u3', null, 'New question', { logicalParentUuid: 'a2' }),
    ]);
    expect(texts(conversation.history)).toEqual(['Keep this: rotate the API keys on Friday', 'Noted, Friday.', 'New question']);
  });
});
