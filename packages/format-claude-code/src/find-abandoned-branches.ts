import { isMessageRecord, type ClaudeCodeRecord } from './claude-code-record.js';
import type { ClaudeCodeBranch } from './claude-code-session.js';
import { getTreeParent } from './find-parent-record.js';

type MutableBranch = { -readonly [Key in keyof ClaudeCodeBranch]: ClaudeCodeBranch[Key] };

/**
 * Finds the branches of one lane the chosen path does not contain: rewinds and edited messages fork the `parentUuid`
 * tree, and the conversation the model saw goes on along one fork only. Only branches holding at least one user or
 * assistant record are reported (hook progress hangs beside the path everywhere and is not a branch).
 *
 * @param records - The session's records, in file order.
 * @param recordsByUuid - The same records by uuid.
 * @param onPath - Uuids of the chosen path (with its attached records).
 * @param inLane - Which records belong to the lane the path was chosen in.
 * @returns The abandoned branches in order of their first record.
 */
export function findAbandonedBranches(
  records: readonly ClaudeCodeRecord[],
  recordsByUuid: ReadonlyMap<string, ClaudeCodeRecord>,
  onPath: ReadonlySet<string>,
  inLane: (record: ClaudeCodeRecord) => boolean,
): ClaudeCodeBranch[] {
  const rootByUuid = new Map<string, ClaudeCodeRecord>();
  const findBranchRoot = (record: ClaudeCodeRecord): ClaudeCodeRecord => {
    const visited = new Set<string>();
    let node = record;
    let root: ClaudeCodeRecord | undefined;
    for (;;) {
      const known = rootByUuid.get(node.uuid as string);
      if (known !== undefined) {
        root = known;
        break;
      }
      visited.add(node.uuid as string);
      const parent = getTreeParent(recordsByUuid, node);
      if (parent === undefined || onPath.has(parent.uuid as string) || visited.has(parent.uuid as string)) {
        root = node;
        break;
      }
      node = parent;
    }
    for (const uuid of visited) rootByUuid.set(uuid, root);
    return root;
  };

  const branches = new Map<string, MutableBranch>();
  for (const record of records) {
    if (record.uuid === undefined || record.epoch === undefined || record.type === 'compact_system') continue;
    if (onPath.has(record.uuid) || !inLane(record)) continue;
    const root = findBranchRoot(record);
    let branch = branches.get(root.uuid as string);
    if (branch === undefined) {
      branch = { rootUuid: root.uuid as string, rootLine: root.line, leafUuid: '', recordCount: 0, messageCount: 0 };
      const fork = getTreeParent(recordsByUuid, root);
      if (fork !== undefined && onPath.has(fork.uuid as string)) branch.forkUuid = fork.uuid;
      branches.set(root.uuid as string, branch);
    }
    branch.recordCount += 1;
    if (isMessageRecord(record)) {
      branch.messageCount += 1;
      branch.leafUuid = record.uuid;
    }
  }
  return [...branches.values()].filter((branch) => branch.messageCount > 0);
}
