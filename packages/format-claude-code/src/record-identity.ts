import type { JsonValue } from '@ctx/core';
import type { ClaudeCodeRecord } from './claude-code-record.js';
import { omitKeys } from './record-fields.js';

/**
 * `message` becomes the entry's blocks; `toolUseResult` is Claude Code's own copy of a tool's output, which
 * duplicates the `tool_result` the model saw and would double the size (its presence is kept as a flag).
 */
const convertedKeys: ReadonlySet<string> = new Set(['message', 'toolUseResult']);

/**
 * The Claude Code identity of a record, for `providerMetadata.claudeCode` of the entry made from it: every
 * top-level field except the message and `toolUseResult` (`uuid`, `parentUuid`, `isSidechain`, `isMeta`, `cwd`,
 * `gitBranch`, `version`, `requestId`, `sessionId`, …), plus its 1-based `line` and `hasToolUseResult`.
 *
 * @param record - A user or assistant record.
 * @returns A new JSON object; the record is not modified.
 */
export function getRecordIdentity(record: ClaudeCodeRecord): Record<string, JsonValue> {
  const identity = omitKeys(record.value, convertedKeys);
  identity.line = record.line;
  if (record.value.toolUseResult !== undefined) identity.hasToolUseResult = true;
  return identity;
}
