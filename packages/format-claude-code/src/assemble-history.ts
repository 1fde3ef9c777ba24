import {
  isJsonObject,
  markGeneratedEntry,
  type ContentBlock,
  type EntryUsage,
  type FormatWarning,
  type HistoryEntry,
  type JsonObject,
  type JsonValue,
  type ToolResponseBlock,
} from '@ctx/core';
import { readNumberField, readObjectField, readStringField } from '@ctx/format-utils';
import { convertAssistantContent, type UnsupportedBlock } from './assistant-content.js';
import { getAssistantMessageId, getRecordMessage, type ClaudeCodeRecord } from './claude-code-record.js';
import type { ClaudeCodeCompaction } from './claude-code-session.js';
import { omitKeys, withoutUndefined } from './record-fields.js';
import { getRecordIdentity } from './record-identity.js';
import { convertUserContent } from './user-content.js';
import { classifyUserText } from './user-text-kind.js';

/** The generator name compaction summaries are marked with (`markGeneratedEntry`). */
export const claudeCodeCompactionGenerator = 'claude-code-compaction';

/** What {@link assembleHistory} needs besides the records. */
export interface AssembleHistoryContext {
  /** Tool name of every call in the session, to name responses. */
  readonly toolNameById: ReadonlyMap<string, string>;
  /** The compaction each summary record belongs to. */
  readonly compactionBySummaryUuid: ReadonlyMap<string, ClaudeCodeCompaction>;
}

/** A pair-valid history and what was dropped or could not be converted. */
export interface AssembledHistory {
  readonly history: HistoryEntry[];
  readonly warnings: FormatWarning[];
  readonly unsupportedBlocks: (UnsupportedBlock & { readonly line: number; readonly uuid?: string })[];
  readonly droppedToolCalls: number;
  readonly droppedToolResponses: number;
}

/** One API response: its assistant records merged, and the tool results that answer it. */
interface Turn {
  readonly kind: 'turn';
  readonly messageId: string | undefined;
  readonly epoch: number | undefined;
  readonly records: ClaudeCodeRecord[];
  readonly blocks: ContentBlock[];
  readonly callLines: Map<string, number>;
  readonly answered: Set<string>;
  readonly toolEntries: HistoryEntry[];
}

type Segment = Turn | { readonly kind: 'entry'; readonly entry: HistoryEntry };

const messageKeys: ReadonlySet<string> = new Set(['content', 'role', 'id', 'model']);

function toUsage(usage: JsonObject | undefined): EntryUsage | undefined {
  if (usage === undefined) return undefined;
  const count = (key: string) => {
    const value = readNumberField(usage, key);
    return value !== undefined && Number.isInteger(value) && value >= 0 ? value : undefined;
  };
  const fields: Record<string, number | undefined> = {
    inputTokens: count('input_tokens'),
    outputTokens: count('output_tokens'),
    cacheReadTokens: count('cache_read_input_tokens'),
    cacheWriteTokens: count('cache_creation_input_tokens'),
  };
  const present = Object.entries(fields).filter((field): field is [string, number] => field[1] !== undefined);
  return present.length === 0 ? undefined : (Object.fromEntries(present));
}

function timestampOf(record: ClaudeCodeRecord): { timestamp?: string } {
  const timestamp = readStringField(record.value, 'timestamp');
  return timestamp === undefined ? {} : { timestamp };
}

function aiEntry(turn: Turn, blocks: ContentBlock[]): HistoryEntry {
  const first = turn.records[0] as ClaudeCodeRecord;
  const last = turn.records.at(-1) as ClaudeCodeRecord;
  // Every record of a response repeats the message envelope; the last one has the final stop reason and usage.
  const lastMessage = getRecordMessage(last) ?? {};
  const claudeCode: Record<string, JsonValue> = getRecordIdentity(first);
  if (turn.records.length > 1) {
    claudeCode.recordUuids = turn.records.flatMap((record) => (record.uuid === undefined ? [] : [record.uuid]));
    claudeCode.lines = turn.records.map((record) => record.line);
  }
  claudeCode.message = omitKeys(lastMessage, messageKeys);
  const model = readStringField(lastMessage, 'model') ?? readStringField(getRecordMessage(first), 'model');
  const usage = toUsage(readObjectField(lastMessage, 'usage'));
  return {
    speaker: 'ai',
    blocks,
    metadata: {
      id: turn.messageId ?? first.uuid ?? `line-${first.line}`,
      ...timestampOf(first),
      ...(model === undefined ? {} : { model }),
      ...(usage === undefined ? {} : { usage }),
      providerMetadata: { claudeCode },
    },
  };
}

function recordEntry(
  record: ClaudeCodeRecord,
  speaker: 'human' | 'tool',
  blocks: ContentBlock[],
  extra: Record<string, JsonValue>,
): HistoryEntry {
  return {
    speaker,
    blocks,
    metadata: {
      ...(record.uuid === undefined ? {} : { id: record.uuid }),
      ...timestampOf(record),
      providerMetadata: { claudeCode: { ...getRecordIdentity(record), ...extra } },
    },
  };
}

/** The JSON description of a compaction that entries and conversations carry. */
export function describeCompaction(compaction: ClaudeCodeCompaction): Record<string, JsonValue> {
  const { number, form, epoch, line, uuid, timestamp, trigger, preTokens, logicalParentUuid, logicalParentFound } =
    compaction;
  const { summaryUuid, metadata, completed, restored } = compaction;
  return withoutUndefined({
    number,
    form,
    epoch,
    line,
    uuid,
    timestamp,
    trigger,
    preTokens,
    logicalParentUuid,
    logicalParentFound,
    summaryUuid,
    metadata,
    completed,
    restored,
  });
}

/**
 * Turns the records of a conversation path (in file order) into a pair-valid canonical history.
 *
 * - The assistant records of one API response (same `message.id`) become one `ai` entry, even when tool results
 *   were written between them (Claude Code runs a tool while the response is still streaming).
 * - Each tool result goes right after the response whose call it answers, as a `tool` entry per user record;
 *   text written in between (hook reminders, a prompt typed while tools ran) follows the results.
 * - A call with no result on the path is dropped from its `ai` entry (warning `lossy`): the session ended or was
 *   interrupted mid-call, and a provider rejects an unanswered call. A result whose call is not on the path, or a
 *   second result for one call, is dropped too (warning `lossy`).
 * - Compaction summaries are marked with `markGeneratedEntry(entry, 'claude-code-compaction')` and carry
 *   `providerMetadata.claudeCode.compactBoundary`.
 *
 * @param records - The path's records, in file order.
 * @param context - Tool names and compactions of the session.
 * @returns The history, warnings, and counts of what was dropped.
 */
export function assembleHistory(records: readonly ClaudeCodeRecord[], context: AssembleHistoryContext): AssembledHistory {
  const warnings: FormatWarning[] = [];
  const unsupportedBlocks: AssembledHistory['unsupportedBlocks'] = [];
  const segments: Segment[] = [];
  const turnByCallId = new Map<string, Turn>();
  let lastTurn: Turn | undefined;
  let droppedToolCalls = 0;
  let droppedToolResponses = 0;

  const keepUnsupported = (record: ClaudeCodeRecord, blocks: readonly UnsupportedBlock[]) => {
    for (const block of blocks) {
      unsupportedBlocks.push({ ...block, line: record.line, ...(record.uuid === undefined ? {} : { uuid: record.uuid }) });
    }
  };

  const addAssistant = (record: ClaudeCodeRecord) => {
    const converted = convertAssistantContent(record);
    warnings.push(...converted.warnings);
    keepUnsupported(record, converted.unsupported);
    const messageId = getAssistantMessageId(record);
    let turn = lastTurn;
    if (turn === undefined || messageId === undefined || turn.messageId !== messageId || turn.epoch !== record.epoch) {
      turn = {
        kind: 'turn',
        messageId,
        epoch: record.epoch,
        records: [],
        blocks: [],
        callLines: new Map(),
        answered: new Set(),
        toolEntries: [],
      };
      segments.push(turn);
      lastTurn = turn;
    }
    turn.records.push(record);
    for (const block of converted.blocks) {
      if (block.type === 'tool_call') {
        if (turnByCallId.has(block.id)) {
          droppedToolCalls += 1;
          warnings.push({
            type: 'lossy',
            line: record.line,
            message: `tool call id ${block.id} (${block.name}) was already used on this path; the repeated call was dropped`,
          });
          continue;
        }
        turnByCallId.set(block.id, turn);
        turn.callLines.set(block.id, record.line);
      }
      turn.blocks.push(block);
    }
  };

  const addUser = (record: ClaudeCodeRecord) => {
    const converted = convertUserContent(record, context.toolNameById);
    warnings.push(...converted.warnings);
    keepUnsupported(record, converted.unsupported);
    const responsesByTurn = new Map<Turn, ToolResponseBlock[]>();
    for (const response of converted.toolResponses) {
      const turn = turnByCallId.get(response.callId);
      if (turn === undefined || turn.answered.has(response.callId)) {
        droppedToolResponses += 1;
        warnings.push({
          type: 'lossy',
          line: record.line,
          message:
            turn === undefined
              ? `tool result for ${response.callId} answers no call on this path; dropped`
              : `tool call ${response.callId} (${response.toolName}) is answered again; the repeated result was dropped`,
        });
        continue;
      }
      turn.answered.add(response.callId);
      const responses = responsesByTurn.get(turn) ?? [];
      responses.push(response);
      responsesByTurn.set(turn, responses);
    }
    for (const [turn, responses] of responsesByTurn) {
      const subagentId = readStringField(readObjectField(record.value, 'toolUseResult'), 'agentId');
      turn.toolEntries.push(recordEntry(record, 'tool', responses, subagentId === undefined ? {} : { subagentId }));
    }
    if (converted.humanBlocks.length === 0) return;
    const textKind = classifyUserText(record);
    let entry = recordEntry(record, 'human', converted.humanBlocks, { textKind, isUserTyped: textKind === 'typed' });
    if (textKind === 'compaction-summary') {
      const compaction = record.uuid === undefined ? undefined : context.compactionBySummaryUuid.get(record.uuid);
      entry = markGeneratedEntry(entry, claudeCodeCompactionGenerator);
      if (compaction !== undefined) {
        const metadata = entry.metadata ?? {};
        const claudeCode = metadata.providerMetadata?.claudeCode ?? {};
        entry = {
          ...entry,
          metadata: {
            ...metadata,
            providerMetadata: {
              ...metadata.providerMetadata,
              claudeCode: { ...claudeCode, compactBoundary: describeCompaction(compaction) },
            },
          },
        };
      }
    }
    segments.push({ kind: 'entry', entry });
  };

  for (const record of records) {
    if (record.type !== 'user' && record.type !== 'assistant') continue;
    if (!isJsonObject(record.value.message)) {
      warnings.push({
        type: 'malformed',
        line: record.line,
        message: `${record.type} record without a message object; not converted`,
      });
      continue;
    }
    if (record.type === 'assistant') addAssistant(record);
    else addUser(record);
  }

  const history: HistoryEntry[] = [];
  for (const segment of segments) {
    if (segment.kind === 'entry') {
      history.push(segment.entry);
      continue;
    }
    const blocks = segment.blocks.filter((block) => {
      if (block.type !== 'tool_call' || segment.answered.has(block.id)) return true;
      droppedToolCalls += 1;
      warnings.push({
        type: 'lossy',
        line: segment.callLines.get(block.id),
        message: `tool call ${block.id} (${block.name}) has no result in the session (it ended or was interrupted mid-call); the call was dropped so the history stays provider-valid`,
      });
      return false;
    });
    if (blocks.length > 0) {
      history.push(aiEntry(segment, blocks));
    } else if (segment.blocks.length === 0) {
      warnings.push({
        type: 'lossy',
        line: segment.records[0]?.line,
        message: `assistant response ${segment.messageId ?? ''} has no content blocks; no entry was made`,
      });
    }
    history.push(...segment.toolEntries);
  }
  return { history, warnings, unsupportedBlocks, droppedToolCalls, droppedToolResponses };
}
