import type { JsonValue } from '@ctx/core';

/** A record of a hand-written fixture. */
export type FixtureRecord = { readonly [key: string]: JsonValue };

const base = (uuid: string, parentUuid: string | null, extra: FixtureRecord = {}): FixtureRecord => ({
  parentUuid,
  isSidechain: false,
  userType: 'external',
  cwd: '/work/app',
  sessionId: 'session-1',
  version: '2.1.39',
  gitBranch: 'main',
  uuid,
  timestamp: '2026-02-11T20:00:00.000Z',
  ...extra,
});

/** A user record with string content or content blocks. */
export function user(
  uuid: string,
  parentUuid: string | null,
  content: string | readonly JsonValue[],
  extra: FixtureRecord = {},
): FixtureRecord {
  return { ...base(uuid, parentUuid, extra), type: 'user', message: { role: 'user', content } };
}

/** An assistant record holding one content block of API response `messageId`. */
export function assistant(
  uuid: string,
  parentUuid: string | null,
  messageId: string,
  block: JsonValue,
  extra: FixtureRecord = {},
): FixtureRecord {
  return {
    ...base(uuid, parentUuid, extra),
    type: 'assistant',
    requestId: `req-${messageId}`,
    message: {
      model: 'claude-opus-4-6',
      id: messageId,
      type: 'message',
      role: 'assistant',
      content: [block],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 3, cache_creation_input_tokens: 10, cache_read_input_tokens: 20, output_tokens: 5 },
    },
  };
}

export const text = (value: string): JsonValue => ({ type: 'text', text: value });

export const toolUse = (id: string, name = 'Read', input: JsonValue = { file_path: '/a.ts' }): JsonValue => ({
  type: 'tool_use',
  id,
  name,
  input,
});

export const toolResult = (id: string, content: JsonValue = 'ok', extra: FixtureRecord = {}): JsonValue => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
  ...extra,
});

/** A user record answering one call. */
export function result(uuid: string, parentUuid: string, callId: string, content: JsonValue = 'ok'): FixtureRecord {
  return user(uuid, parentUuid, [toolResult(callId, content)], {
    toolUseResult: { stdout: typeof content === 'string' ? content : JSON.stringify(content), stderr: '' },
    sourceToolAssistantUUID: parentUuid,
  });
}

/** A hook progress record (never sent to the model, but part of the parentUuid chain). */
export function progress(uuid: string, parentUuid: string): FixtureRecord {
  return {
    ...base(uuid, parentUuid),
    type: 'progress',
    data: { type: 'hook_progress', hookEvent: 'PostToolUse' },
    toolUseID: 'toolu',
    parentToolUseID: 'toolu',
  };
}

/** A modern compaction boundary. */
export function compactBoundary(
  uuid: string,
  logicalParentUuid: string,
  compactMetadata: FixtureRecord = { trigger: 'auto', preTokens: 160_000 },
): FixtureRecord {
  return {
    ...base(uuid, null),
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    isMeta: false,
    level: 'info',
    logicalParentUuid,
    compactMetadata,
  };
}

/** The summary user record of a compaction (child of a boundary, or a new root in the legacy form). */
export function compactSummary(uuid: string, parentUuid: string | null, summary = 'Summary of the work so far.'): FixtureRecord {
  return user(uuid, parentUuid, `This session is being continued from a previous conversation. ${summary}`, {
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
  });
}

/** A spec 001 `compact_system` record. */
export function compactSystem(message: string, extra: FixtureRecord = {}): FixtureRecord {
  return { type: 'compact_system', message, timestamp: '2025-01-27T10:00:00Z', ...extra };
}

/** Records as JSON Lines. */
export function jsonl(records: readonly FixtureRecord[]): string {
  return `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
}
