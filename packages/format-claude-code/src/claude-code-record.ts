import { isJsonArray, isJsonObject, type JsonObject, type JsonValue } from '@ctx/core';
import { readObjectField, readStringField } from '@ctx/format-utils';

/**
 * Record types Claude Code writes (plus spec 001's `compact_system`). Any other type is kept, counted and reported
 * as `unsupported`, never fatal: new Claude Code versions add types.
 */
export const knownClaudeCodeRecordTypes: ReadonlySet<string> = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'progress',
  'file-history-snapshot',
  'queue-operation',
  'attachment',
  'compact_system',
]);

/**
 * One line of a Claude Code session file, with the fields the tree is built from read out once. `value` is the
 * record exactly as parsed; nothing is dropped.
 */
export interface ClaudeCodeRecord {
  /** 1-based line number in the file. */
  readonly line: number;
  /** 0-based position among the records read (malformed lines are not records). */
  readonly index: number;
  /** `user`, `assistant`, `system`, `progress`, … */
  readonly type: string;
  readonly uuid?: string;
  /**
   * The physical parent; undefined for a root (`parentUuid: null`) or a record without one. When the parent the
   * file names was on a malformed line, this is the record the conversation was joined to instead (see
   * `reconnectedAcross`); `value.parentUuid` keeps what the file says.
   */
  readonly parentUuid?: string;
  /** Set when the parent was lost on malformed lines: those lines, ascending. */
  readonly reconnectedAcross?: readonly number[];
  /** Set on the first record after a compaction: the last record before it. */
  readonly logicalParentUuid?: string;
  /** True for records of a subagent (Task tool) conversation. */
  readonly isSidechain: boolean;
  /** The subagent id, on records of `subagents/agent-*.jsonl` files. */
  readonly agentId?: string;
  /**
   * The 1-based conversation epoch (compactions start a new one), or undefined for records written while a spec 001
   * `compact_system` compaction was in progress.
   */
  readonly epoch?: number;
  readonly value: JsonObject;
}

/**
 * The record's `message` object (user and assistant records), or undefined. Spec 001 `compact_system` records carry
 * a string `message` instead; it is not returned here.
 */
export function getRecordMessage(record: ClaudeCodeRecord): JsonObject | undefined {
  return readObjectField(record.value, 'message');
}

/** The content blocks of a user or assistant record: a string becomes one text block. */
export function getRecordContent(record: ClaudeCodeRecord): readonly JsonValue[] | string | undefined {
  const content = getRecordMessage(record)?.content;
  if (typeof content === 'string' || isJsonArray(content)) return content;
  return undefined;
}

/** The content blocks of a record that are objects (non-object items are not blocks and are skipped). */
export function getRecordBlocks(record: ClaudeCodeRecord): readonly JsonObject[] {
  const content = getRecordContent(record);
  if (!Array.isArray(content)) return [];
  return content.filter(isJsonObject);
}

/** The Anthropic message id of an assistant record (`msg_…`): records of one API response share it. */
export function getAssistantMessageId(record: ClaudeCodeRecord): string | undefined {
  return record.type === 'assistant' ? readStringField(getRecordMessage(record), 'id') : undefined;
}

/** True for a conversation record: a user or assistant message. */
export function isMessageRecord(record: ClaudeCodeRecord): boolean {
  return record.type === 'user' || record.type === 'assistant';
}

/** True for a modern compaction boundary: a `system` record with `subtype: 'compact_boundary'`. */
export function isCompactBoundaryRecord(record: ClaudeCodeRecord): boolean {
  return record.type === 'system' && record.value.subtype === 'compact_boundary';
}

/** True for a user record holding a compaction summary (`isCompactSummary: true`). */
export function isCompactSummaryRecord(record: ClaudeCodeRecord): boolean {
  return record.type === 'user' && record.value.isCompactSummary === true;
}

/** The record's string content, or the text of its first `text` block. */
export function getFirstText(record: ClaudeCodeRecord): string | undefined {
  const content = getRecordContent(record);
  if (typeof content === 'string') return content;
  for (const block of getRecordBlocks(record)) {
    if (block.type === 'text' && typeof block.text === 'string') return block.text;
  }
  return undefined;
}
