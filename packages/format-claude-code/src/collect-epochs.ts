import { isMessageRecord, type ClaudeCodeRecord } from './claude-code-record.js';
import type { ClaudeCodeCompaction, ClaudeCodeEpoch, ClaudeCodeOrphan } from './claude-code-session.js';

type MutableEpoch = { -readonly [Key in keyof ClaudeCodeEpoch]: ClaudeCodeEpoch[Key] };

/**
 * Spec 001 `reconstruct_session`: one entry per epoch with its record, message, root and orphan counts. Every
 * epoch a compaction starts is listed, even when no record follows it.
 *
 * @param records - The session's records, in file order, with their epochs.
 * @param compactions - The session's compactions.
 * @param orphans - The session's orphans.
 * @returns The epochs, first to last.
 */
export function collectEpochs(
  records: readonly ClaudeCodeRecord[],
  compactions: readonly ClaudeCodeCompaction[],
  orphans: readonly ClaudeCodeOrphan[],
): ClaudeCodeEpoch[] {
  const epochCount = Math.max(1, ...compactions.map((compaction) => compaction.epoch));
  const epochs: MutableEpoch[] = Array.from({ length: epochCount }, (_, index) => ({
    number: index + 1,
    recordCount: 0,
    messageCount: 0,
    rootCount: 0,
    orphanCount: 0,
    hasOrphans: false,
  }));
  for (const compaction of compactions) {
    const epoch = epochs[compaction.epoch - 1];
    if (epoch !== undefined) epoch.compaction = compaction.number;
  }
  const orphaned = new Set(orphans.map((orphan) => orphan.uuid));
  for (const record of records) {
    if (record.epoch === undefined || record.type === 'compact_system') continue;
    const epoch = epochs[record.epoch - 1];
    if (epoch === undefined) continue;
    epoch.firstLine ??= record.line;
    epoch.lastLine = record.line;
    epoch.recordCount += 1;
    if (isMessageRecord(record)) epoch.messageCount += 1;
    if (record.uuid === undefined) continue;
    const isOrphan = orphaned.has(record.uuid);
    if (record.parentUuid === undefined || isOrphan) epoch.rootCount += 1;
    if (isOrphan) {
      epoch.orphanCount += 1;
      epoch.hasOrphans = true;
    }
  }
  return epochs;
}
