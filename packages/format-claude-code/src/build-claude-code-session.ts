import type { FormatWarning } from '@ctx/core';
import { isMessageRecord, type ClaudeCodeRecord } from './claude-code-record.js';
import type {
  ClaudeCodeCompaction,
  ClaudeCodeFileStatistics,
  ClaudeCodeMalformedLine,
  ClaudeCodeOrphan,
  ClaudeCodeReconnection,
  ClaudeCodeSession,
} from './claude-code-session.js';
import { collectEpochs } from './collect-epochs.js';
import { resolveConversationPath } from './conversation-path.js';
import { findAbandonedBranches } from './find-abandoned-branches.js';
import { findOrphans } from './find-orphans.js';
import { groupSidechains } from './group-sidechains.js';
import { resolvePreservedSegments } from './preserved-segments.js';
import { reconnectAcrossMalformedLines, type MalformedLineInput } from './reconnect-across-malformed-lines.js';

/** What the reader collected while streaming the file. */
export interface ClaudeCodeSessionParts {
  readonly records: readonly ClaudeCodeRecord[];
  /** Lines that could not be read, in file order. */
  readonly malformed: readonly MalformedLineInput[];
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

function joinLines(lines: readonly number[]): string {
  if (lines.length <= 1) return `line ${lines.join('')}`;
  return `lines ${lines.slice(0, -1).join(', ')} and ${lines.at(-1)}`;
}

/** One line per malformed line: what it held, and what happened to the records that hung under it. */
function describeMalformedLine(entry: ClaudeCodeMalformedLine): string {
  const consequences: string[] = [];
  const byParent = new Map<string, { lines: number[]; across: readonly number[] }>();
  for (const reconnection of entry.reconnected) {
    const key = `${reconnection.parentLine ?? 'root'}:${reconnection.acrossLines.join(',')}`;
    const group = byParent.get(key) ?? { lines: [], across: reconnection.acrossLines };
    group.lines.push(reconnection.line);
    byParent.set(key, group);
  }
  for (const [key, { lines, across }] of byParent) {
    const parent = key.split(':')[0];
    const run = across.length > 1 ? ` (the damaged ${joinLines(across)})` : '';
    const one = lines.length === 1;
    consequences.push(
      parent === 'root'
        ? `${joinLines(lines)} now ${one ? 'starts' : 'start'} the conversation${run}`
        : `the conversation was joined across it${run}: ${joinLines(lines)} now ${one ? 'follows' : 'follow'} line ${parent}`,
    );
  }
  if (entry.cutOff.length > 0) {
    consequences.push(`${joinLines(entry.cutOff)} could not be joined (a compaction lies between) and start a tree of their own`);
  }
  if (consequences.length === 0) consequences.push('no record named it as parent');
  return `line ${entry.line}: ${entry.problem}; the line was skipped and ${entry.held} was lost; ${consequences.join('; ')}`;
}

function collectMalformedLines(
  malformed: readonly MalformedLineInput[],
  reconnections: readonly ClaudeCodeReconnection[],
  cutOff: ReadonlyMap<number, readonly number[]>,
): ClaudeCodeMalformedLine[] {
  return malformed.map(({ line, problem, salvage }) => ({
    line,
    problem,
    held: salvage.description,
    ...(salvage.type === undefined ? {} : { type: salvage.type }),
    ...(salvage.uuid === undefined ? {} : { uuid: salvage.uuid }),
    reconnected: reconnections.filter((reconnection) => reconnection.acrossLines.includes(line)),
    cutOff: cutOff.get(line) ?? [],
  }));
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
  const { statistics } = parts;
  const { records, reconnections, cutOff } = reconnectAcrossMalformedLines(parts.records, parts.malformed);
  const malformedLines = collectMalformedLines(parts.malformed, reconnections, cutOff);
  const warnings: FormatWarning[] = [
    ...parts.warnings,
    ...malformedLines.map((entry): FormatWarning => ({ type: 'malformed', line: entry.line, message: describeMalformedLine(entry) })),
  ];
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

  const tree = { kind, records, recordsByUuid, compactions } as const;
  const segments = resolvePreservedSegments(tree);
  warnings.push(...segments.warnings);
  // A record continuing from a compaction's preserved segment is not cut off: the view follows the segment.
  const orphans = findOrphans(records, recordsByUuid).filter(
    (orphan) =>
      orphan.reason !== 'parent-in-previous-epoch' ||
      orphan.epoch === undefined ||
      segments.byEpoch.get(orphan.epoch)?.uuids.has(orphan.missingUuid) !== true,
  );
  for (const orphan of orphans) warnings.push({ type: 'other', line: orphan.line, message: describeOrphan(orphan) });
  const epochs = collectEpochs(records, compactions, orphans);

  const leaf = findLeaf(records, inMainLane);
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
    malformedLines,
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
