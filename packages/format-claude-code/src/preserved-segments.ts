import type { FormatWarning } from '@ctx/core';
import type { ClaudeCodeRecord } from './claude-code-record.js';
import type { ClaudeCodeCompaction } from './claude-code-session.js';
import type { ConversationTree } from './conversation-path.js';

/** A compaction's preserved segment, found in the file. */
export interface ResolvedPreservedSegment {
  readonly compaction: ClaudeCodeCompaction;
  /** The records from head to tail. */
  readonly uuids: ReadonlySet<string>;
  readonly head: ClaudeCodeRecord;
  readonly tail: ClaudeCodeRecord;
  /** The record the head follows after the compaction (the summary or the boundary); undefined if not in the file. */
  readonly anchor?: ClaudeCodeRecord;
}

/** The preserved segments by the epoch their compaction starts, and the ones that could not be followed. */
export interface PreservedSegments {
  readonly byEpoch: ReadonlyMap<number, ResolvedPreservedSegment>;
  readonly warnings: readonly FormatWarning[];
}

/**
 * Follows each compaction's `preservedSegment` (a partial compaction keeps the last messages verbatim): from the tail
 * along `parentUuid` to the head. The segment's records stay where they were written, before the boundary; the
 * model saw them after the summary. A segment that cannot be followed (head or tail missing, the chain does not
 * lead from tail to head) is reported, and the view falls back to the records after the compaction alone.
 *
 * @param tree - The session's records and compactions.
 * @returns The segments by epoch, and a warning per segment that could not be followed.
 */
export function resolvePreservedSegments(tree: ConversationTree): PreservedSegments {
  const byEpoch = new Map<number, ResolvedPreservedSegment>();
  const warnings: FormatWarning[] = [];
  for (const compaction of tree.compactions) {
    const segment = compaction.preservedSegment;
    if (segment === undefined) continue;
    const fail = (reason: string) =>
      warnings.push({
        type: 'lossy',
        line: compaction.line,
        message: `compaction at line ${compaction.line} kept messages verbatim (preservedSegment ${segment.headUuid} … ${segment.tailUuid}), but ${reason}; the last-epoch view starts after the compaction without them`,
      });
    const head = tree.recordsByUuid.get(segment.headUuid);
    const tail = tree.recordsByUuid.get(segment.tailUuid);
    if (head === undefined || tail === undefined) {
      fail(`its ${head === undefined ? 'head' : 'tail'} is not in the file`);
      continue;
    }
    const uuids = new Set<string>();
    let node: ClaudeCodeRecord | undefined = tail;
    while (node !== undefined && !uuids.has(node.uuid as string) && uuids.size <= tree.records.length) {
      uuids.add(node.uuid as string);
      if (node === head) break;
      node = node.parentUuid === undefined ? undefined : tree.recordsByUuid.get(node.parentUuid);
    }
    if (!uuids.has(head.uuid as string)) {
      fail(`the parentUuid chain from its tail (line ${tail.line}) does not reach its head (line ${head.line})`);
      continue;
    }
    const anchor = tree.recordsByUuid.get(segment.anchorUuid) ?? (compaction.uuid === undefined ? undefined : tree.recordsByUuid.get(compaction.uuid));
    byEpoch.set(compaction.epoch, { compaction, uuids, head, tail, ...(anchor === undefined ? {} : { anchor }) });
  }
  return { byEpoch, warnings };
}
