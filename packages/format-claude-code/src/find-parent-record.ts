import type { ClaudeCodeRecord } from './claude-code-record.js';
import type { ClaudeCodeSession } from './claude-code-session.js';

/**
 * The parent of `record` in the conversation tree: the record its `parentUuid` names, when that record is in the
 * file and in the same epoch. A parent in an earlier epoch does not count: the compaction cut the link, so the
 * record starts a new tree there (spec 001 "treat orphaned messages as DAG roots").
 */
export function getTreeParent(
  recordsByUuid: ReadonlyMap<string, ClaudeCodeRecord>,
  record: ClaudeCodeRecord,
): ClaudeCodeRecord | undefined {
  if (record.parentUuid === undefined) return undefined;
  const parent = recordsByUuid.get(record.parentUuid);
  if (parent === undefined || parent.epoch !== record.epoch || parent.type === 'compact_system') return undefined;
  return parent;
}

/**
 * Spec 001 `safe_parent_lookup`: resolves a record's parent, treating orphans as roots.
 *
 * @param session - The session the record belongs to.
 * @param record - A record of `session`.
 * @returns The parent record, or undefined for an explicit root (`parentUuid: null`), a parent missing from the
 *   file, or a parent in an earlier epoch.
 * @example
 * ```ts
 * const parent = findParentRecord(session, record);
 * if (parent === undefined) console.log(`${record.uuid} starts a tree`);
 * ```
 */
export function findParentRecord(session: ClaudeCodeSession, record: ClaudeCodeRecord): ClaudeCodeRecord | undefined {
  return getTreeParent(session.recordsByUuid, record);
}
