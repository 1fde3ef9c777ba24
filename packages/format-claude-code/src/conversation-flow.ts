import type { ClaudeCodeSession } from './claude-code-session.js';

/** One record in the conversation flow: its physical and logical parents (spec 001 `maintain_flow`). */
export interface ClaudeCodeFlowStep {
  readonly uuid: string;
  readonly line: number;
  readonly type: string;
  readonly epoch?: number;
  /** `parentUuid` as written (undefined for a root). */
  readonly physicalParentUuid?: string;
  /** `logicalParentUuid`: the record before the compaction this record continues from. */
  readonly logicalParentUuid?: string;
  /** A new root that continues a compacted conversation (`parentUuid: null` with a logical parent). */
  readonly isPostCompact: boolean;
  /** Named a parent the tree cannot use; treated as a root. */
  readonly isOrphanRoot: boolean;
}

/**
 * Spec 001 `trace_logical_continuity`: every record that names a logical parent, by uuid.
 *
 * @param session - A parsed session.
 * @returns Record uuid → `logicalParentUuid`.
 * @example
 * ```ts
 * traceLogicalParents(session).get(session.compactions[0].uuid); // the last record before the compaction
 * ```
 */
export function traceLogicalParents(session: ClaudeCodeSession): ReadonlyMap<string, string> {
  const logicalParents = new Map<string, string>();
  for (const record of session.records) {
    if (record.uuid !== undefined && record.logicalParentUuid !== undefined) {
      logicalParents.set(record.uuid, record.logicalParentUuid);
    }
  }
  return logicalParents;
}

/**
 * Spec 001 `maintain_flow`: the records with a uuid in file order (spec 001 `compact_system` records left out),
 * each with its physical parent, its logical parent and whether it starts a post-compaction epoch.
 *
 * @param session - A parsed session.
 * @returns One step per record.
 * @example
 * ```ts
 * const restarts = getConversationFlow(session).filter((step) => step.isPostCompact);
 * ```
 */
export function getConversationFlow(session: ClaudeCodeSession): ClaudeCodeFlowStep[] {
  const orphaned = new Set(session.orphans.map((orphan) => orphan.uuid));
  const steps: ClaudeCodeFlowStep[] = [];
  for (const record of session.records) {
    if (record.uuid === undefined || record.type === 'compact_system') continue;
    steps.push({
      uuid: record.uuid,
      line: record.line,
      type: record.type,
      ...(record.epoch === undefined ? {} : { epoch: record.epoch }),
      ...(record.parentUuid === undefined ? {} : { physicalParentUuid: record.parentUuid }),
      ...(record.logicalParentUuid === undefined ? {} : { logicalParentUuid: record.logicalParentUuid }),
      isPostCompact: record.parentUuid === undefined && record.logicalParentUuid !== undefined,
      isOrphanRoot: orphaned.has(record.uuid),
    });
  }
  return steps;
}
