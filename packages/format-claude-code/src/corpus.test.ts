// The recorded corpus (../shared/corpus): every Claude Code file of the manifest, read, checked against the
// manifest's statistics, and converted in both views.
import {
  findToolPairingProblems,
  getEntryGenerator,
  parseConversation,
  type DecodeResult,
  type HistoryEntry,
} from '@ctx/core';
import { readStringField } from '@ctx/format-utils';
import { corpusExists, readCorpusText } from '@ctx/format-utils/testing';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { getRecordBlocks, type ClaudeCodeRecord } from './claude-code-record.js';
import { parseClaudeCodeSession } from './claude-code-session-reader.js';
import type { ClaudeCodeSession } from './claude-code-session.js';
import { analyzeCompacts } from './compact-statistics.js';
import { convertClaudeCodeSession } from './convert-claude-code-session.js';
import { estimateCompactTrigger } from './estimate-compact-trigger.js';
import { claudeCodeManifest, type ManifestEntry } from './test-support/claude-code-manifest.js';

const manifest = claudeCodeManifest();
const sessions = new Map<string, ClaudeCodeSession>();
const sessionOf = (file: string): ClaudeCodeSession => {
  let session = sessions.get(file);
  if (session === undefined) {
    session = parseClaudeCodeSession(readCorpusText(file));
    sessions.set(file, session);
  }
  return session;
};
const isSubagentFile = (entry: ManifestEntry) => entry.file.includes('/subagents/');
const mainSessionFileOf = (subagentFile: string) => subagentFile.replace(/\/subagents\/[^/]+$/, '.jsonl');

const toolCallCount = (history: readonly HistoryEntry[]) =>
  history.reduce((count, entry) => count + entry.blocks.filter((block) => block.type === 'tool_call').length, 0);

/** What a naive reader gets: the ancestors of the last record only (following logicalParentUuid across compactions). */
function naiveUnansweredCalls(session: ClaudeCodeSession): number {
  const calls = new Set<string>();
  const answered = new Set<string>();
  let record: ClaudeCodeRecord | undefined = session.recordsByUuid.get(session.leafUuid ?? '');
  while (record !== undefined) {
    for (const block of getRecordBlocks(record)) {
      if (block.type === 'tool_use') calls.add(readStringField(block, 'id') ?? '');
      if (block.type === 'tool_result') answered.add(readStringField(block, 'tool_use_id') ?? '');
    }
    const next: string | undefined = record.parentUuid ?? record.logicalParentUuid;
    record = next === undefined ? undefined : session.recordsByUuid.get(next);
  }
  return [...calls].filter((id) => !answered.has(id)).length;
}

describe.skipIf(!corpusExists)('parseClaudeCodeSession on the recorded corpus', () => {
  it('should find every Claude Code file of the manifest', () => {
    expect(manifest.map((entry) => entry.file)).toHaveLength(16);
  });

  describe.each(manifest)('$file', (entry) => {
    it('should read the file and agree with the manifest counts', () => {
      const { statistics } = sessionOf(entry.file);
      expect({
        records: statistics.records,
        messages: statistics.messages,
        recordTypes: statistics.recordTypes,
        toolCalls: statistics.toolCalls,
        compactBoundaries: statistics.compactBoundaries,
        compactSummaries: statistics.compactSummaries,
        sidechainRecords: statistics.sidechainRecords,
        malformedLines: statistics.malformedLines,
        versions: statistics.versions,
      }).toEqual({
        records: entry.records,
        messages: entry.messages,
        recordTypes: entry.record_types,
        toolCalls: entry.tool_calls,
        compactBoundaries: entry.compact_boundaries,
        compactSummaries: entry.compact_summaries,
        sidechainRecords: entry.sidechain_records,
        malformedLines: entry.malformed_lines,
        versions: entry.versions,
      });
      expect(sessionOf(entry.file).warnings.filter((warning) => warning.type !== 'other')).toEqual([]);
    });

    it('should report as orphan roots exactly the dangling parents the manifest counts', () => {
      const session = sessionOf(entry.file);
      const missingParents = session.orphans.filter((orphan) => orphan.reason === 'missing-parent');
      expect(missingParents).toHaveLength(entry.dangling_parentUuid);
      if (!isSubagentFile(entry)) return;
      // A subagent file's dangling parents are records of its main session.
      const main = sessionOf(mainSessionFileOf(entry.file));
      for (const orphan of missingParents) expect(main.recordsByUuid.has(orphan.missingUuid)).toBe(true);
    });

    it.each(['last-epoch', 'whole-session'] as const)(
      'should convert the %s view to a valid history with zero pairing problems and no dropped call',
      (view) => {
        const decoded: DecodeResult = convertClaudeCodeSession(sessionOf(entry.file), { view });
        expect(findToolPairingProblems(decoded.conversation.history)).toEqual([]);
        expect(decoded.conversation.providerMetadata?.claudeCode).toMatchObject({ droppedToolCalls: 0, droppedToolResponses: 0 });
        expect(() => parseConversation(decoded.conversation)).not.toThrow();
        // The main conversation never holds a sidechain record (a subagent file is all sidechain).
        const isSubagent = sessionOf(entry.file).kind === 'subagent';
        const sidechainFlags = new Set(
          decoded.conversation.history.map((historyEntry) => historyEntry.metadata?.providerMetadata?.claudeCode?.isSidechain),
        );
        expect([...sidechainFlags]).toEqual(decoded.conversation.history.length === 0 ? [] : [isSubagent]);
      },
    );

    it('should account for every message and tool call in the main path, the sidechains or the abandoned branches', () => {
      const session = sessionOf(entry.file);
      const mainMessages = session.mainPath.filter((uuid) => {
        const type = session.recordsByUuid.get(uuid)?.type;
        return type === 'user' || type === 'assistant';
      }).length;
      const sidechainMessages = session.sidechains.reduce((sum, sidechain) => sum + sidechain.messageCount, 0);
      const abandonedMessages = session.abandonedBranches.reduce((sum, branch) => sum + branch.messageCount, 0);
      expect(mainMessages + sidechainMessages + abandonedMessages).toBe(entry.messages);

      const whole = convertClaudeCodeSession(session, { view: 'whole-session' }).conversation.history;
      const branchCalls = [...session.sidechains, ...session.abandonedBranches].reduce(
        (sum, branch) => sum + toolCallCount(convertClaudeCodeSession(session, { leafUuid: branch.leafUuid }).conversation.history),
        0,
      );
      expect(toolCallCount(whole) + branchCalls).toBe(entry.tool_calls);
    });
  });
});

describe.skipIf(!corpusExists)('convertClaudeCodeSession on the recorded corpus', () => {
  const longSpotterSessions = manifest
    .map((entry) => entry.file)
    .filter((file) => /spotter\/[0-9a-f-]{36}\.jsonl$/.test(file));

  it.each(longSpotterSessions)(
    'should pair the parallel tool calls that a walk back from the last record leaves unanswered in %s',
    (file) => {
      const session = sessionOf(file);
      expect(naiveUnansweredCalls(session)).toBeGreaterThan(0);
      const decoded = convertClaudeCodeSession(session, { view: 'whole-session' });
      expect(decoded.conversation.providerMetadata?.claudeCode?.attachedRecords).toBeGreaterThan(0);
      expect(findToolPairingProblems(decoded.conversation.history)).toEqual([]);
    },
  );

  it.each(longSpotterSessions)('should start the last-epoch view of %s with the compaction summary', (file) => {
    const session = sessionOf(file);
    expect(session.compactions).toEqual([expect.objectContaining({ form: 'compact-boundary', completed: true })]);
    expect(['auto', 'manual']).toContain(session.compactions[0]?.trigger);
    expect(session.compactions[0]?.preTokens).toBeGreaterThan(100_000);
    const [first] = convertClaudeCodeSession(session).conversation.history;
    expect(getEntryGenerator(first as HistoryEntry)).toBe('claude-code-compaction');
    expect(first?.metadata?.providerMetadata?.claudeCode?.compactBoundary).toMatchObject({ number: 1 });
  });

  it('should report the logicalParentUuid that points outside the file as an orphan root and still read the earlier epoch', () => {
    const session = sessionOf('claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
    expect(session.orphans).toEqual([
      expect.objectContaining({ line: 754, type: 'system', reason: 'missing-logical-parent', epoch: 2 }),
    ]);
    expect(session.compactions[0]?.logicalParentFound).toBe(false);
    expect(session.epochs.map((epoch) => epoch.hasOrphans)).toEqual([false, true]);
    const whole = convertClaudeCodeSession(session, { view: 'whole-session' }).conversation;
    expect(whole.providerMetadata?.claudeCode?.includedEpochs).toEqual([1, 2]);
    expect(toolCallCount(whole.history)).toBe(150);
  });

  it('should read the legacy compaction form (a new root user record with isCompactSummary)', () => {
    const session = sessionOf('claude-code/vsla/0a725fb5-6378-432a-9e84-9f3f49d4043d.jsonl');
    expect(session.compactions).toEqual([expect.objectContaining({ form: 'legacy-summary', line: 451, epoch: 2 })]);
    const last = convertClaudeCodeSession(session).conversation.history;
    expect(last[0]?.metadata?.id).toBe(session.compactions[0]?.summaryUuid);
    expect(getEntryGenerator(last[0] as HistoryEntry)).toBe('claude-code-compaction');
  });

  it('should keep inline sidechains apart and link each to the Task call that started it', () => {
    for (const file of ['claude-code/claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', 'claude-code/vsla/5f8cbb78-38d3-47e9-9504-baa93bb166c9.jsonl']) {
      const session = sessionOf(file);
      expect(session.sidechains.length).toBeGreaterThan(0);
      const mainCalls = new Set(
        convertClaudeCodeSession(session, { view: 'whole-session' }).conversation.history.flatMap((entry) =>
          entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : [])),
        ),
      );
      for (const sidechain of session.sidechains) expect(mainCalls.has(sidechain.taskCallId ?? '')).toBe(true);
    }
  });

  it('should read subagent files on their own, compaction agents included', () => {
    const subagents = manifest.filter(isSubagentFile).map((entry) => sessionOf(entry.file));
    expect(subagents.map((session) => session.kind)).toEqual(subagents.map(() => 'subagent'));
    expect(subagents.filter((session) => session.agentId?.startsWith('acompact-'))).toHaveLength(3);
    for (const session of subagents.filter((each) => each.agentId?.startsWith('acompact-'))) {
      const history = convertClaudeCodeSession(session).conversation.history;
      expect(history.at(-2)?.blocks[0]).toMatchObject({ type: 'text', text: expect.stringContaining('create a detailed summary') as string });
      expect(history.at(-1)?.speaker).toBe('ai');
    }
  });

  it('Compact Statistics Tracking: should count the compactions of the corpus main sessions', () => {
    const mainSessions = manifest.filter((entry) => !isSubagentFile(entry)).map((entry) => sessionOf(entry.file));
    expect(analyzeCompacts(mainSessions)).toEqual({
      totalSessions: 10,
      sessionsWithCompacts: 4,
      totalCompacts: 4,
      maxCompactsPerSession: 1,
    });
  });

  it('Context Window Estimation: should estimate fewer tokens than Claude Code reported before each real compaction', async () => {
    const tokenizer = await createGptTokenizer();
    for (const file of longSpotterSessions) {
      const estimate = estimateCompactTrigger(sessionOf(file), { tokenizer });
      const [first] = estimate.epochs;
      const preTokens = first?.endedBy?.preTokens ?? 0;
      // The file lacks the system prompt and tool definitions, so the transcript alone must read lower.
      expect(first?.estimatedTokens).toBeLessThan(preTokens);
      expect(first?.estimatedTokens).toBeGreaterThan(preTokens * 0.4);
      expect(estimate.triggerPoints.every((point) => point.estimatedTokens > 150_000)).toBe(true);
    }
  });
});
