import { readStringField } from '@ctx/format-utils';
import {
  getAssistantMessageId,
  getRecordBlocks,
  isMessageRecord,
  type ClaudeCodeRecord,
} from './claude-code-record.js';
import type { ClaudeCodeCompaction, ClaudeCodeSession } from './claude-code-session.js';
import { getTreeParent } from './find-parent-record.js';

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
 * Resolves the records the model saw when the conversation reached `leaf`.
 *
 * 1. Walk `parentUuid` from the leaf to the root of its epoch (a compaction boundary, a legacy summary, or an
 *    orphan). With `acrossCompactions`, continue from the previous epoch's leaf, and so on.
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

  let current: ClaudeCodeRecord | undefined = isConversationRecord(leaf) ? leaf : undefined;
  while (current !== undefined) {
    let node: ClaudeCodeRecord = current;
    for (;;) {
      const uuid = node.uuid as string;
      if (onPath.has(uuid)) break; // A cycle in a damaged file: stop rather than loop.
      onPath.add(uuid);
      pathRecords.push(node);
      const parent = getTreeParent(tree.recordsByUuid, node);
      if (parent === undefined) break;
      node = parent;
    }
    current = crossEpochs ? findPreviousEpochLeaf(tree, node, compactionByEpoch) : undefined;
    if (current !== undefined && onPath.has(current.uuid as string)) current = undefined;
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

  return {
    records: pathRecords.sort((first, second) => first.index - second.index),
    epochs: [...epochs].sort((first, second) => first - second),
    attachedCount,
  };
}
