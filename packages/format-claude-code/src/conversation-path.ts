import { readStringField } from '@ctx/format-utils';
import {
  getAssistantMessageId,
  getRecordBlocks,
  isMessageRecord,
  type ClaudeCodeRecord,
} from './claude-code-record.js';
import type { ClaudeCodeCompaction, ClaudeCodeSession } from './claude-code-session.js';
import { getTreeParent } from './find-parent-record.js';
import { resolvePreservedSegments, type ResolvedPreservedSegment } from './preserved-segments.js';

/** The parts of a session the path is resolved from (a session under construction has them too). */
export type ConversationTree = Pick<ClaudeCodeSession, 'kind' | 'records' | 'recordsByUuid' | 'compactions'>;

/** The records a model saw on one branch, in file order. */
export interface ConversationPath {
  readonly records: readonly ClaudeCodeRecord[];
  /** The epochs the path covers, ascending. */
  readonly epochs: readonly number[];
  /**
   * Records that are not ancestors of the leaf but belong to the path: further records of the same API responses
   * and tool results Claude Code stored on sibling branches.
   */
  readonly attachedCount: number;
}

/** Options of {@link resolveConversationPath}. */
export interface ConversationPathOptions {
  /** Continue into earlier epochs across compactions (the whole session) instead of stopping at the last one. */
  readonly acrossCompactions: boolean;
}

/** Records of one lane (the main conversation, or one subagent) can be on one path; others never are. */
function laneOf(record: ClaudeCodeRecord): string {
  return `${record.isSidechain}:${record.agentId ?? ''}`;
}

function isConversationRecord(record: ClaudeCodeRecord): boolean {
  return record.uuid !== undefined && record.epoch !== undefined && record.type !== 'compact_system';
}

/**
 * Finds where the branch continues before `root`, the first record of an epoch: the compaction's logical parent
 * when the file has it, else the physical parent in the earlier epoch (spec 001 test scenario), else the last
 * record of the same lane before the compaction (older files have no `logicalParentUuid`; one corpus session's
 * points outside the file).
 */
function findPreviousEpochLeaf(
  tree: ConversationTree,
  root: ClaudeCodeRecord,
  compactionByEpoch: ReadonlyMap<number, ClaudeCodeCompaction>,
): ClaudeCodeRecord | undefined {
  const epoch = root.epoch;
  if (epoch === undefined || epoch <= 1) return undefined;
  const isEarlier = (record: ClaudeCodeRecord | undefined): record is ClaudeCodeRecord =>
    record !== undefined && isConversationRecord(record) && (record.epoch as number) < epoch && laneOf(record) === laneOf(root);
  const candidates = [root.logicalParentUuid, compactionByEpoch.get(epoch)?.logicalParentUuid, root.parentUuid];
  for (const uuid of candidates) {
    const record = uuid === undefined ? undefined : tree.recordsByUuid.get(uuid);
    if (isEarlier(record)) return record;
  }
  for (let index = root.index - 1; index >= 0; index--) {
    const record = tree.records[index];
    if (isEarlier(record)) return record;
  }
  return undefined;
}

/**
 * Spec 001 `preservedMessages`: a `compact_system` compaction kept the last N messages before it. In the last-epoch
 * view they come before the new root: walk back from the previous epoch's leaf until N messages are on the path.
 */
function addPreservedMessages(
  tree: ConversationTree,
  root: ClaudeCodeRecord,
  compactionByEpoch: ReadonlyMap<number, ClaudeCodeCompaction>,
  onPath: Set<string>,
  pathRecords: ClaudeCodeRecord[],
): void {
  const wanted = root.epoch === undefined ? undefined : compactionByEpoch.get(root.epoch)?.preservedMessages;
  if (wanted === undefined) return;
  let node = findPreviousEpochLeaf(tree, root, compactionByEpoch);
  let kept = 0;
  while (node !== undefined && kept < wanted && !onPath.has(node.uuid as string)) {
    onPath.add(node.uuid as string);
    pathRecords.push(node);
    if (isMessageRecord(node)) kept += 1;
    node = getTreeParent(tree.recordsByUuid, node);
  }
}

/**
 * Resolves the records the model saw when the conversation reached `leaf`.
 *
 * 1. Walk `parentUuid` from the leaf to the root of its epoch (a compaction boundary, a legacy summary, or an
 *    orphan). A partial compaction's preserved segment (`compactMetadata.preservedSegment`) is part of the epoch
 *    it precedes: the walk goes from the first record after the compaction through the segment, tail to head, and
 *    on to its anchor (the summary); in the last epoch alone, the segment's records come right after the anchor,
 *    as the model saw them. Spec 001's `preservedMessages: N` keeps the previous epoch's last N messages. With
 *    `acrossCompactions`, continue from the previous epoch's leaf, and so on.
 * 2. Attach what Claude Code stored beside that branch: assistant records of the same API response (same
 *    `message.id`) and user records with tool results for calls on the path. Claude Code writes parallel tool calls
 *    as a chain of one-block assistant records and hangs each result under its own call, so the ancestors of the
 *    leaf alone miss most of them. Attached records must hang under the path, directly or through records that are
 *    not messages (hook progress, system notes); a rewind's abandoned branch starts with a message, so it never
 *    attaches.
 *
 * Linear in the number of records, plus a small pass over the off-path messages.
 *
 * @param tree - The session (or its parts).
 * @param leaf - The last record of the branch.
 * @param options - Whether to cross compactions.
 * @returns The path's records in file order.
 */
export function resolveConversationPath(
  tree: ConversationTree,
  leaf: ClaudeCodeRecord,
  options: ConversationPathOptions,
): ConversationPath {
  const compactionByEpoch = new Map(tree.compactions.map((compaction) => [compaction.epoch, compaction]));
  const onPath = new Set<string>();
  const pathRecords: ClaudeCodeRecord[] = [];
  // Subagent conversations never cross a compaction of the main session.
  const crossEpochs = options.acrossCompactions && (tree.kind === 'subagent' || !leaf.isSidechain);

  const segments = resolvePreservedSegments(tree).byEpoch;
  const visitedSegments = new Set<ResolvedPreservedSegment>();
  const preserved = new Set<string>();
  let inSegment: ResolvedPreservedSegment | undefined;
  const enterSegment = (segment: ResolvedPreservedSegment, at: ClaudeCodeRecord | undefined) => {
    visitedSegments.add(segment);
    inSegment = segment;
    return at;
  };
  /** The record before `node` in what the model saw: the tree parent, through a compaction's preserved segment. */
  const parentOnPath = (node: ClaudeCodeRecord): ClaudeCodeRecord | undefined => {
    if (inSegment !== undefined) {
      const segment = inSegment;
      preserved.add(node.uuid as string);
      if (node === segment.head) {
        inSegment = undefined;
        return segment.anchor;
      }
      const parent = node.parentUuid === undefined ? undefined : tree.recordsByUuid.get(node.parentUuid);
      return parent !== undefined && segment.uuids.has(parent.uuid as string) ? parent : undefined;
    }
    const parent = getTreeParent(tree.recordsByUuid, node);
    const segment = node.epoch === undefined ? undefined : segments.get(node.epoch);
    if (segment === undefined || visitedSegments.has(segment) || segment.uuids.has(node.uuid as string)) return parent;
    // The first record after the compaction continues from the tail (or hangs under the anchor, which the segment
    // follows): walk the segment from there to its head, then on to the anchor.
    if (parent === undefined && node.parentUuid !== undefined && segment.uuids.has(node.parentUuid)) {
      return enterSegment(segment, tree.recordsByUuid.get(node.parentUuid));
    }
    if (parent !== undefined && parent === segment.anchor && node !== segment.head) return enterSegment(segment, segment.tail);
    return parent;
  };

  let current: ClaudeCodeRecord | undefined = isConversationRecord(leaf) ? leaf : undefined;
  while (current !== undefined) {
    let node: ClaudeCodeRecord = current;
    for (;;) {
      const uuid = node.uuid as string;
      if (onPath.has(uuid)) break; // A cycle in a damaged file: stop rather than loop.
      onPath.add(uuid);
      pathRecords.push(node);
      const parent = parentOnPath(node);
      if (parent === undefined) break;
      node = parent;
    }
    inSegment = undefined;
    const segment = node.epoch === undefined ? undefined : segments.get(node.epoch);
    if (crossEpochs) {
      current = findPreviousEpochLeaf(tree, node, compactionByEpoch);
      // The previous epoch ends with the preserved segment, already on the path: go on from before its head.
      if (current !== undefined && onPath.has(current.uuid as string) && segment !== undefined && visitedSegments.has(segment)) {
        current = getTreeParent(tree.recordsByUuid, segment.head);
      }
      if (current !== undefined && onPath.has(current.uuid as string)) current = undefined;
    } else {
      addPreservedMessages(tree, node, compactionByEpoch, onPath, pathRecords);
      current = undefined;
    }
  }

  const epochs = new Set<number>();
  const messageIds = new Set<string>();
  const calls = new Set<string>();
  const answered = new Set<string>();
  const remember = (record: ClaudeCodeRecord) => {
    const messageId = getAssistantMessageId(record);
    if (messageId !== undefined) messageIds.add(messageId);
    for (const block of getRecordBlocks(record)) {
      if (block.type === 'tool_use') {
        const id = readStringField(block, 'id');
        if (id !== undefined) calls.add(id);
      } else if (block.type === 'tool_result') {
        const id = readStringField(block, 'tool_use_id');
        if (id !== undefined) answered.add(id);
      }
    }
  };
  for (const record of pathRecords) {
    epochs.add(record.epoch as number);
    if (isMessageRecord(record)) remember(record);
  }

  const lane = laneOf(leaf);
  let candidates = tree.records.filter(
    (record) =>
      isMessageRecord(record) &&
      isConversationRecord(record) &&
      !onPath.has(record.uuid as string) &&
      laneOf(record) === lane &&
      epochs.has(record.epoch as number),
  );
  const findAnchor = (record: ClaudeCodeRecord): ClaudeCodeRecord | undefined => {
    let parent = getTreeParent(tree.recordsByUuid, record);
    while (parent !== undefined && !onPath.has(parent.uuid as string) && !isMessageRecord(parent)) {
      parent = getTreeParent(tree.recordsByUuid, parent);
    }
    return parent !== undefined && onPath.has(parent.uuid as string) ? parent : undefined;
  };
  const belongs = (record: ClaudeCodeRecord): boolean => {
    if (record.type === 'assistant') {
      const messageId = getAssistantMessageId(record);
      return messageId !== undefined && messageIds.has(messageId);
    }
    return getRecordBlocks(record).some((block) => {
      if (block.type !== 'tool_result') return false;
      const id = readStringField(block, 'tool_use_id');
      return id !== undefined && calls.has(id) && !answered.has(id);
    });
  };

  let attachedCount = 0;
  // Parents precede children in Claude Code files, so one pass usually attaches everything; repeat until stable
  // for files written out of order.
  let changed = true;
  while (changed && candidates.length > 0) {
    changed = false;
    const remaining: ClaudeCodeRecord[] = [];
    for (const record of candidates) {
      if (findAnchor(record) !== undefined && belongs(record)) {
        onPath.add(record.uuid as string);
        pathRecords.push(record);
        remember(record);
        attachedCount += 1;
        changed = true;
      } else {
        remaining.push(record);
      }
    }
    candidates = remaining;
  }

  // In the last epoch alone, preserved records come right after the anchor, where the model saw them.
  const anchorIndex = crossEpochs ? undefined : [...visitedSegments][0]?.anchor?.index;
  const lastEpoch = leaf.epoch;
  const attachedToPreserved = (record: ClaudeCodeRecord): boolean => {
    let parent = getTreeParent(tree.recordsByUuid, record);
    while (parent !== undefined && !preserved.has(parent.uuid as string) && !isMessageRecord(parent)) {
      parent = getTreeParent(tree.recordsByUuid, parent);
    }
    return parent !== undefined && preserved.has(parent.uuid as string);
  };
  const orderOf = (record: ClaudeCodeRecord) =>
    anchorIndex !== undefined && record.epoch !== lastEpoch && (preserved.has(record.uuid as string) || attachedToPreserved(record))
      ? anchorIndex + 0.5
      : record.index;
  return {
    records: pathRecords.sort((first, second) => orderOf(first) - orderOf(second) || first.index - second.index),
    epochs: [...epochs].sort((first, second) => first - second),
    attachedCount,
  };
}
