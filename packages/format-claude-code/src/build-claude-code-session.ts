import type { FormatWarning } from '@ctx/core';
import { isMessageRecord, type ClaudeCodeRecord } from './claude-code-record.js';
import type {
  ClaudeCodeCompaction,
  ClaudeCodeFileStatistics,
  ClaudeCodeOrphan,
  ClaudeCodeSession,
} from './claude-code-session.js';
import { collectEpochs } from './collect-epochs.js';
import { resolveConversationPath } from './conversation-path.js';
import { findAbandonedBranches } from './find-abandoned-branches.js';
import { findOrphans } from './find-orphans.js';
import { groupSidechains } from './group-sidechains.js';

/** What the reader collected while streaming the file. */
export interface ClaudeCodeSessionParts {
  readonly records: readonly ClaudeCodeRecord[];
  readonly warnings: readonly FormatWarning[];
  readonly statistics: ClaudeCodeFileStatistics;
  readonly compactions: readonly ClaudeCodeCompaction[];
}

function describeOrphan(orphan: ClaudeCodeOrphan): string {
  switch (orphan.reason) {
    case 'missing-parent':
      return `${orphan.type} record ${orphan.uuid} names parent ${orphan.missingUuid}, which is not in the file; treated as a root`;
    case 'parent-in-previous-epoch':
      return `${orphan.type} record ${orphan.uuid} names parent ${orphan.missingUuid} from before a compaction; treated as a root`;
    case 'missing-logical-parent':
      return `${orphan.type} record ${orphan.uuid} continues after a compaction from logical parent ${orphan.missingUuid}, which is not in the file; treated as an orphan root`;
  }
}

/** The last user or assistant record of the lane (else its last record): where the conversation ended. */
function findLeaf(
  records: readonly ClaudeCodeRecord[],
  inLane: (record: ClaudeCodeRecord) => boolean,
): ClaudeCodeRecord | undefined {
  let fallback: ClaudeCodeRecord | undefined;
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index] as ClaudeCodeRecord;
    if (record.uuid === undefined || record.epoch === undefined || record.type === 'compact_system' || !inLane(record)) {
      continue;
    }
    if (isMessageRecord(record)) return record;
    fallback ??= record;
  }
  return fallback;
}

/**
 * Builds the session tree from the records a reader collected: uuid index, orphans, epochs, the main path (across
 * compactions), sidechains and abandoned branches. Linear in the number of records.
 *
 * @param parts - Records, warnings, statistics and compactions from the reader.
 * @returns The session.
 */
export function buildClaudeCodeSession(parts: ClaudeCodeSessionParts): ClaudeCodeSession {
  const { records, statistics } = parts;
  const warnings: FormatWarning[] = [...parts.warnings];
  const recordsByUuid = new Map<string, ClaudeCodeRecord>();
  for (const record of records) {
    if (record.uuid === undefined) continue;
    if (recordsByUuid.has(record.uuid)) {
      warnings.push({
        type: 'other',
        line: record.line,
        message: `uuid ${record.uuid} was already used at line ${recordsByUuid.get(record.uuid)?.line}; the first record keeps it`,
      });
      continue;
    }
    recordsByUuid.set(record.uuid, record);
  }
  const compactions = parts.compactions.map((compaction) =>
    compaction.logicalParentUuid === undefined
      ? compaction
      : { ...compaction, logicalParentFound: recordsByUuid.has(compaction.logicalParentUuid) },
  );

  const treeRecords = records.filter((record) => record.uuid !== undefined);
  const kind = treeRecords.length > 0 && treeRecords.every((record) => record.isSidechain) ? 'subagent' : 'session';
  const inMainLane = (record: ClaudeCodeRecord) => kind === 'subagent' || !record.isSidechain;

  const orphans = findOrphans(records, recordsByUuid);
  for (const orphan of orphans) warnings.push({ type: 'other', line: orphan.line, message: describeOrphan(orphan) });
  const epochs = collectEpochs(records, compactions, orphans);

  const leaf = findLeaf(records, inMainLane);
  const tree = { kind, records, recordsByUuid, compactions } as const;
  const mainPath = leaf === undefined ? [] : resolveConversationPath(tree, leaf, { acrossCompactions: true }).records;
  const onPath = new Set(mainPath.map((record) => record.uuid as string));
  const sidechains = kind === 'session' ? groupSidechains(records, recordsByUuid) : [];
  const abandonedBranches = findAbandonedBranches(records, recordsByUuid, onPath, inMainLane);

  const sessionId = statistics.sessionIds[0];
  const agentId = kind === 'subagent' ? treeRecords.find((record) => record.agentId !== undefined)?.agentId : undefined;
  return {
    kind,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(agentId === undefined ? {} : { agentId }),
    records,
    recordsByUuid,
    warnings: warnings.sort((first, second) => (first.line ?? 0) - (second.line ?? 0)),
    statistics,
    compactions,
    epochs,
    orphans,
    ...(leaf?.uuid === undefined ? {} : { leafUuid: leaf.uuid }),
    mainPath: mainPath.map((record) => record.uuid as string),
    sidechains,
    abandonedBranches,
  };
}
