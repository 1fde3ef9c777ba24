// Spec 001 (Claude Code compact operations): its rules and its "Test Validation" scenario, one test each.
import { describe, expect, it } from 'vitest';
import { parseClaudeCodeSession } from './claude-code-session-reader.js';
import { analyzeCompacts } from './compact-statistics.js';
import { getConversationFlow, traceLogicalParents } from './conversation-flow.js';
import { convertClaudeCodeSession } from './convert-claude-code-session.js';
import { estimateCompactTrigger } from './estimate-compact-trigger.js';
import { findParentRecord } from './find-parent-record.js';
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
import { createWordTokenizer } from './test-support/word-tokenizer.js';

/** The records of spec 001's `test_compact_handling`, verbatim. */
const specTestMessages: FixtureRecord[] = [
  { uuid: 'msg-1', type: 'user', parentUuid: null },
  { uuid: 'msg-2', type: 'assistant', parentUuid: 'msg-1' },
  { type: 'compact_system', message: 'conversation_compacting' },
  { type: 'compact_system', message: 'conversation_compacted', metadata: { preservedMessages: 0, totalMessages: 2 } },
  { uuid: 'msg-3', type: 'user', parentUuid: 'msg-2', logicalParentUuid: 'msg-2' },
];

/** Two compactions in each form a file can use. */
const twoCompactions: Readonly<Record<string, FixtureRecord[]>> = {
  'compact-boundary': [
    user('u1', null, 'one'),
    assistant('a1', 'u1', 'msg_1', text('first')),
    compactBoundary('b1', 'a1'),
    compactSummary('s1', 'b1'),
    assistant('a2', 's1', 'msg_2', text('second')),
    compactBoundary('b2', 'a2'),
    compactSummary('s2', 'b2'),
    assistant('a3', 's2', 'msg_3', text('third')),
  ],
  'legacy-summary': [
    user('u1', null, 'one'),
    assistant('a1', 'u1', 'msg_1', text('first')),
    compactSummary('s1', null),
    assistant('a2', 's1', 'msg_2', text('second')),
    compactSummary('s2', null),
    assistant('a3', 's2', 'msg_3', text('third')),
  ],
  'compact-system': [
    user('u1', null, 'one'),
    assistant('a1', 'u1', 'msg_1', text('first')),
    compactSystem('conversation_compacting', { uuid: 'c1' }),
    compactSystem('conversation_compacted', { uuid: 'c2', metadata: { trigger: 'automatic', tokenCount: 155_234 } }),
    user('u2', null, 'two', { logicalParentUuid: 'a1' }),
    assistant('a2', 'u2', 'msg_2', text('second')),
    compactSystem('conversation_compacting', { uuid: 'c3' }),
    compactSystem('conversation_compacted', { uuid: 'c4' }),
    user('u3', null, 'three', { logicalParentUuid: 'a2' }),
    assistant('a3', 'u3', 'msg_3', text('third')),
  ],
};

describe('parseClaudeCodeSession (spec 001 compact operations)', () => {
  it('Test Validation: should count one compaction and report msg-3 as the only orphan root', () => {
    const session = parseClaudeCodeSession(jsonl(specTestMessages));

    expect(session.compactions).toHaveLength(1);
    expect(session.orphans.map((orphan) => orphan.uuid)).toEqual(['msg-3']);
    expect(session.orphans[0]).toMatchObject({ reason: 'parent-in-previous-epoch', missingUuid: 'msg-2', epoch: 2 });
    expect(session.compactions[0]?.metadata).toEqual({ preservedMessages: 0, totalMessages: 2 });
  });

  it.each(Object.entries(twoCompactions))(
    'Multi-Compact Handling: should split a session with two compactions (%s form) into three epochs',
    (form, records) => {
      const session = parseClaudeCodeSession(jsonl(records));
      expect(session.compactions.map((compaction) => [compaction.form, compaction.epoch])).toEqual([
        [form, 2],
        [form, 3],
      ]);
      expect(session.epochs.map((epoch) => [epoch.number, epoch.messageCount])).toEqual([
        [1, 2],
        [2, 2],
        [3, 2],
      ]);
      const whole = convertClaudeCodeSession(session, { view: 'whole-session' }).conversation.history;
      expect(whole.filter((entry) => entry.speaker === 'ai').map((entry) => entry.metadata?.id)).toEqual([
        'msg_1',
        'msg_2',
        'msg_3',
      ]);
      const last = convertClaudeCodeSession(session).conversation.history;
      expect(last.map((entry) => entry.speaker)).toEqual(['human', 'ai']);
    },
  );

  it('Root creation: should start each post-compact epoch with a new root (parentUuid null), not an orphan', () => {
    const session = parseClaudeCodeSession(jsonl(twoCompactions['compact-system'] as FixtureRecord[]));
    expect(session.orphans).toEqual([]);
    expect(session.epochs.map((epoch) => epoch.rootCount)).toEqual([1, 1, 1]);
  });

  it('identify_epochs: should leave records written between conversation_compacting and conversation_compacted out of every epoch', () => {
    const session = parseClaudeCodeSession(
      jsonl([
        user('u1', null, 'one'),
        compactSystem('conversation_compacting'),
        user('during', 'u1', 'written while compacting'),
        compactSystem('conversation_compacted'),
        user('u2', null, 'two'),
      ]),
    );
    expect(session.records.find((record) => record.uuid === 'during')?.epoch).toBeUndefined();
    expect(session.epochs.map((epoch) => epoch.recordCount)).toEqual([1, 1]);
  });

  it('Compact Metadata Structure: should read trigger and pre-compact tokens from every form', () => {
    const boundary = parseClaudeCodeSession(
      jsonl([user('u1', null, 'x'), compactBoundary('b1', 'u1', { trigger: 'manual', preTokens: 12_345 }), compactSummary('s1', 'b1')]),
    );
    expect(boundary.compactions[0]).toMatchObject({ trigger: 'manual', preTokens: 12_345, summaryUuid: 's1', logicalParentFound: true });
    const system = parseClaudeCodeSession(jsonl(twoCompactions['compact-system'] as FixtureRecord[]));
    expect(system.compactions[0]).toMatchObject({ trigger: 'automatic', preTokens: 155_234, completed: true });
  });

  it('Optional Restoration: should mark the compaction restored and start no new epoch', () => {
    const session = parseClaudeCodeSession(
      jsonl([...specTestMessages, compactSystem('conversation_restored', { uuid: 'restored-001' }), user('msg-4', null, 'x')]),
    );
    expect(session.compactions).toEqual([expect.objectContaining({ restored: true, completed: true })]);
    expect(session.epochs).toHaveLength(2);
  });

  it('Orphan Handling: should report a logicalParentUuid that points outside the file as an orphan root and still convert', () => {
    const session = parseClaudeCodeSession(
      jsonl([
        user('u1', null, 'one'),
        assistant('a1', 'u1', 'msg_1', text('first')),
        compactBoundary('b1', 'not-in-this-file'),
        compactSummary('s1', 'b1'),
        assistant('a2', 's1', 'msg_2', text('second')),
      ]),
    );
    expect(session.orphans).toEqual([
      expect.objectContaining({ uuid: 'b1', reason: 'missing-logical-parent', missingUuid: 'not-in-this-file' }),
    ]);
    expect(session.compactions[0]?.logicalParentFound).toBe(false);
    // The previous epoch is still reached: from the last record before the boundary.
    const whole = convertClaudeCodeSession(session, { view: 'whole-session' }).conversation.history;
    expect(whole.map((entry) => entry.metadata?.id)).toEqual(['u1', 'msg_1', 's1', 'msg_2']);
  });

  it('Session Continuity: should keep one session id across a compaction', () => {
    const session = parseClaudeCodeSession(jsonl(twoCompactions['compact-boundary'] as FixtureRecord[]));
    expect(session.statistics.sessionIds).toEqual(['session-1']);
    expect(session.sessionId).toBe('session-1');
  });
});

describe('findParentRecord', () => {
  it('safe_parent_lookup: should return the parent, and undefined for an explicit root, a missing parent or a parent before a compaction', () => {
    const session = parseClaudeCodeSession(jsonl([...specTestMessages, { uuid: 'lost', type: 'user', parentUuid: 'gone' }]));
    const byUuid = (uuid: string) => session.recordsByUuid.get(uuid)!;
    expect(findParentRecord(session, byUuid('msg-2'))?.uuid).toBe('msg-1');
    expect(findParentRecord(session, byUuid('msg-1'))).toBeUndefined();
    expect(findParentRecord(session, byUuid('msg-3'))).toBeUndefined();
    expect(findParentRecord(session, byUuid('lost'))).toBeUndefined();
  });
});

describe('reconstruct_session (session.epochs)', () => {
  it('Session Reconstruction: should count roots and flag orphans per epoch', () => {
    const session = parseClaudeCodeSession(jsonl(specTestMessages));
    expect(session.epochs).toEqual([
      expect.objectContaining({ number: 1, recordCount: 2, rootCount: 1, hasOrphans: false }),
      expect.objectContaining({ number: 2, compaction: 1, recordCount: 1, rootCount: 1, orphanCount: 1, hasOrphans: true }),
    ]);
  });
});

describe('traceLogicalParents', () => {
  it('Logical Parent Tracking: should map each record that names a logical parent to it', () => {
    const session = parseClaudeCodeSession(jsonl(twoCompactions['compact-boundary'] as FixtureRecord[]));
    expect([...traceLogicalParents(session)]).toEqual([
      ['b1', 'a1'],
      ['b2', 'a2'],
    ]);
  });
});

describe('getConversationFlow', () => {
  it('Conversation Flow Preservation: should give physical and logical parents and mark post-compact roots, skipping compact_system records', () => {
    const session = parseClaudeCodeSession(jsonl(twoCompactions['compact-system'] as FixtureRecord[]));
    const flow = getConversationFlow(session);
    expect(flow.map((step) => step.uuid)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
    expect(flow.find((step) => step.uuid === 'u2')).toEqual({
      uuid: 'u2',
      line: 5,
      type: 'user',
      epoch: 2,
      logicalParentUuid: 'a1',
      isPostCompact: true,
      isOrphanRoot: false,
    });
    expect(flow.find((step) => step.uuid === 'a2')).toMatchObject({ physicalParentUuid: 'u2', isPostCompact: false });
  });
});

describe('analyzeCompacts', () => {
  it('Compact Statistics Tracking: should count sessions, sessions with compacts, compacts and the most per session', () => {
    const sessions = [
      parseClaudeCodeSession(jsonl(twoCompactions['compact-boundary'] as FixtureRecord[])),
      parseClaudeCodeSession(jsonl(specTestMessages)),
      parseClaudeCodeSession(jsonl([user('u1', null, 'no compaction')])),
    ];
    expect(analyzeCompacts(sessions)).toEqual({
      totalSessions: 3,
      sessionsWithCompacts: 2,
      totalCompacts: 3,
      maxCompactsPerSession: 2,
    });
    expect(analyzeCompacts([])).toEqual({ totalSessions: 0, sessionsWithCompacts: 0, totalCompacts: 0, maxCompactsPerSession: 0 });
  });
});

describe('estimateCompactTrigger', () => {
  it('Context Window Estimation: should report the first message of each epoch where the running count passes the threshold', () => {
    const words = (count: number) => Array.from({ length: count }, () => 'w').join(' ');
    const session = parseClaudeCodeSession(
      jsonl([
        user('u1', null, words(40)),
        assistant('a1', 'u1', 'msg_1', text(words(40))),
        user('u2', 'a1', words(40)),
        compactBoundary('b1', 'u2', { trigger: 'auto', preTokens: 130 }),
        compactSummary('s1', 'b1', words(10)),
        assistant('a2', 's1', 'msg_2', text(words(10))),
      ]),
    );
    const estimate = estimateCompactTrigger(session, { tokenizer: createWordTokenizer(), threshold: 100 });
    expect(estimate.triggerPoints).toEqual([{ epoch: 1, line: 3, uuid: 'u2', estimatedTokens: 120 }]);
    expect(estimate.epochs[0]).toEqual({
      epoch: 1,
      messageCount: 3,
      estimatedTokens: 120,
      endedBy: { compaction: 1, trigger: 'auto', preTokens: 130 },
    });
    expect(estimate.epochs[1]?.endedBy).toBeUndefined();
    expect(estimate.threshold).toBe(100);
    expect(estimateCompactTrigger(session, { tokenizer: createWordTokenizer() }).threshold).toBe(150_000);
  });
});
