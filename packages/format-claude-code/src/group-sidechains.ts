import { readObjectField, readStringField } from '@ctx/format-utils';
import { getFirstText, getRecordBlocks, isMessageRecord, type ClaudeCodeRecord } from './claude-code-record.js';
import type { ClaudeCodeSidechain } from './claude-code-session.js';
import { getTreeParent } from './find-parent-record.js';

type MutableSidechain = { -readonly [Key in keyof ClaudeCodeSidechain]: ClaudeCodeSidechain[Key] };

/** Task-tool prompts of the main lane, so an inline sidechain can name the call that started it. */
function indexTaskPrompts(records: readonly ClaudeCodeRecord[]): Map<string, string> {
  const callIdByPrompt = new Map<string, string>();
  for (const record of records) {
    if (record.type !== 'assistant' || record.isSidechain) continue;
    for (const block of getRecordBlocks(record)) {
      if (block.type !== 'tool_use') continue;
      const prompt = readStringField(readObjectField(block, 'input'), 'prompt');
      const id = readStringField(block, 'id');
      if (prompt !== undefined && id !== undefined && !callIdByPrompt.has(prompt)) callIdByPrompt.set(prompt, id);
    }
  }
  return callIdByPrompt;
}

/**
 * Groups the sidechain records of a main session file into subagent conversations: by `agentId` when records carry
 * one, else by the root of their `parentUuid` tree (older versions wrote each Task run inline, rooted at its
 * prompt).
 *
 * @param records - The session's records, in file order.
 * @param recordsByUuid - The same records by uuid.
 * @returns The sidechains in order of their first record.
 */
export function groupSidechains(
  records: readonly ClaudeCodeRecord[],
  recordsByUuid: ReadonlyMap<string, ClaudeCodeRecord>,
): ClaudeCodeSidechain[] {
  const rootByUuid = new Map<string, ClaudeCodeRecord>();
  const findRoot = (record: ClaudeCodeRecord): ClaudeCodeRecord => {
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
      if (parent === undefined || !parent.isSidechain || visited.has(parent.uuid as string)) {
        root = node;
        break;
      }
      node = parent;
    }
    for (const uuid of visited) rootByUuid.set(uuid, root);
    return root;
  };

  const sidechains = new Map<string, MutableSidechain>();
  let callIdByPrompt: Map<string, string> | undefined;
  for (const record of records) {
    if (!record.isSidechain || record.uuid === undefined) continue;
    const root = record.agentId === undefined ? findRoot(record) : undefined;
    // Every record walked here has a uuid, so the root has one too.
    const id = record.agentId ?? root?.uuid ?? record.uuid;
    let sidechain = sidechains.get(id);
    if (sidechain === undefined) {
      const start = root ?? record;
      sidechain = {
        id,
        rootUuid: start.uuid as string,
        firstLine: record.line,
        lastLine: record.line,
        recordCount: 0,
        messageCount: 0,
        leafUuid: record.uuid,
      };
      if (record.agentId !== undefined) sidechain.agentId = record.agentId;
      const prompt = start.type === 'user' ? getFirstText(start) : undefined;
      if (prompt !== undefined) {
        callIdByPrompt ??= indexTaskPrompts(records);
        const taskCallId = callIdByPrompt.get(prompt);
        if (taskCallId !== undefined) sidechain.taskCallId = taskCallId;
      }
      sidechains.set(id, sidechain);
    }
    sidechain.lastLine = record.line;
    sidechain.recordCount += 1;
    if (isMessageRecord(record)) {
      sidechain.messageCount += 1;
      sidechain.leafUuid = record.uuid;
    }
  }
  return [...sidechains.values()];
}
