import type { ClaudeCodeRecord } from './claude-code-record.js';
import type { ClaudeCodeOrphan } from './claude-code-session.js';

/**
 * Finds every record that names a parent the tree cannot use (spec 001 "orphaned messages"): a `parentUuid` that
 * is not in the file or lies in an earlier epoch, or a compaction root whose `logicalParentUuid` is not in the file.
 * Such records are treated as roots.
 *
 * @param records - The session's records, in file order.
 * @param recordsByUuid - The same records by uuid.
 * @returns The orphans in file order.
 */
export function findOrphans(
  records: readonly ClaudeCodeRecord[],
  recordsByUuid: ReadonlyMap<string, ClaudeCodeRecord>,
): ClaudeCodeOrphan[] {
  const orphans: ClaudeCodeOrphan[] = [];
  for (const record of records) {
    if (record.uuid === undefined || record.type === 'compact_system') continue;
    const base = { uuid: record.uuid, line: record.line, type: record.type, isSidechain: record.isSidechain };
    const withEpoch = record.epoch === undefined ? base : { ...base, epoch: record.epoch };
    if (record.parentUuid !== undefined) {
      const parent = recordsByUuid.get(record.parentUuid);
      if (parent === undefined) {
        orphans.push({ ...withEpoch, reason: 'missing-parent', missingUuid: record.parentUuid });
      } else if (parent.epoch !== record.epoch || parent.type === 'compact_system') {
        orphans.push({ ...withEpoch, reason: 'parent-in-previous-epoch', missingUuid: record.parentUuid });
      }
    } else if (record.logicalParentUuid !== undefined && !recordsByUuid.has(record.logicalParentUuid)) {
      orphans.push({ ...withEpoch, reason: 'missing-logical-parent', missingUuid: record.logicalParentUuid });
    }
  }
  return orphans;
}
