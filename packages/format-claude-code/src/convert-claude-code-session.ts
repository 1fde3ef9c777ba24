import {
  describeToolPairingProblem,
  findToolPairingProblems,
  type DecodeResult,
  type FormatWarning,
  type JsonValue,
} from '@ctx/core';
import { readStringField } from '@ctx/format-utils';
import { assembleHistory, describeCompaction } from './assemble-history.js';
import { getRecordBlocks, type ClaudeCodeRecord } from './claude-code-record.js';
import type { ClaudeCodeCompaction, ClaudeCodeSession } from './claude-code-session.js';
import { resolveConversationPath } from './conversation-path.js';
import { withoutUndefined } from './record-fields.js';
import { UnknownClaudeCodeRecordError } from './unknown-claude-code-record-error.js';

/**
 * Which part of the session to convert.
 *
 * - `last-epoch`: what the model saw at the end — the last epoch of the chosen branch, starting with the
 *   compaction summary if there was a compaction.
 * - `whole-session`: every epoch in order; each compaction summary entry is marked (`markGeneratedEntry(entry,
 *   'claude-code-compaction')`) and carries `providerMetadata.claudeCode.compactBoundary`.
 */
export type ClaudeCodeView = 'last-epoch' | 'whole-session';

/** Options of {@link convertClaudeCodeSession}. */
export interface ConvertClaudeCodeSessionOptions {
  /**
   * Which part of the session to convert.
   * @default 'last-epoch'
   */
  readonly view?: ClaudeCodeView;
  /**
   * Convert the branch that ends at this record instead of the main conversation: a sidechain's or an abandoned
   * branch's `leafUuid`.
   * @default session.leafUuid
   */
  readonly leafUuid?: string;
}

function indexToolNames(records: readonly ClaudeCodeRecord[]): Map<string, string> {
  const toolNameById = new Map<string, string>();
  for (const record of records) {
    if (record.type !== 'assistant') continue;
    for (const block of getRecordBlocks(record)) {
      if (block.type !== 'tool_use') continue;
      const id = readStringField(block, 'id');
      const name = readStringField(block, 'name');
      if (id !== undefined && name !== undefined) toolNameById.set(id, name);
    }
  }
  return toolNameById;
}

/**
 * Converts a Claude Code session (or one of its sidechains or abandoned branches) to the canonical ctx
 * conversation.
 *
 * Mapping: assistant records → `ai` entries, one per API response (the records sharing a `message.id` are merged;
 * `metadata.id` is the message id, with `model` and `usage`); `text`, `thinking` (signature verbatim),
 * `redacted_thinking` and `tool_use` blocks → text, thinking and tool_call blocks. User records: `tool_result`
 * blocks → `tool` entries (`isError` from `is_error`, nested content kept as JSON), text and images → `human`
 * entries. Progress, system, snapshot and queue records are not sent to the model and are left out (they are
 * counted in the session statistics). Every entry keeps its record identity (`uuid`, `parentUuid`, `isMeta`, `cwd`,
 * `gitBranch`, `version`, `requestId`, `line`, …) in `metadata.providerMetadata.claudeCode`, human entries add
 * `textKind` and `isUserTyped`; `toolUseResult` is not copied. The output is pair-valid: a call without a result
 * anywhere on the path is dropped with a `lossy` warning.
 *
 * @param session - A parsed session.
 * @param options - The view and, optionally, the branch to convert.
 * @returns The conversation (with session facts in `providerMetadata.claudeCode`) and every warning: the
 *   session's own (malformed lines, unknown types, orphans) and the conversion's.
 * @throws {@link UnknownClaudeCodeRecordError} when `leafUuid` is not a record of the session.
 * @example
 * ```ts
 * const session = parseClaudeCodeSession(text);
 * const { conversation, warnings } = convertClaudeCodeSession(session, { view: 'whole-session' });
 * ```
 */
export function convertClaudeCodeSession(
  session: ClaudeCodeSession,
  options: ConvertClaudeCodeSessionOptions = {},
): DecodeResult {
  const view = options.view ?? 'last-epoch';
  const leafUuid = options.leafUuid ?? session.leafUuid;
  const leaf = leafUuid === undefined ? undefined : session.recordsByUuid.get(leafUuid);
  if (leafUuid !== undefined && leaf === undefined) throw new UnknownClaudeCodeRecordError({ uuid: leafUuid });

  const path =
    leaf === undefined
      ? { records: [], epochs: [], attachedCount: 0 }
      : resolveConversationPath(session, leaf, { acrossCompactions: view === 'whole-session' });

  const compactionBySummaryUuid = new Map<string, ClaudeCodeCompaction>();
  for (const compaction of session.compactions) {
    if (compaction.summaryUuid !== undefined) compactionBySummaryUuid.set(compaction.summaryUuid, compaction);
  }
  const assembled = assembleHistory(path.records, {
    toolNameById: indexToolNames(session.records),
    compactionBySummaryUuid,
  });

  const warnings: FormatWarning[] = [...session.warnings, ...assembled.warnings];
  // The assembly is pair-valid by construction; report rather than hide it if a file still defeats it.
  for (const problem of findToolPairingProblems(assembled.history)) {
    warnings.push({ type: 'other', message: `pairing problem left in the converted history: ${describeToolPairingProblem(problem)}` });
  }

  const { statistics } = session;
  const claudeCode: Record<string, JsonValue> = withoutUndefined({
    sessionId: session.sessionId,
    kind: session.kind,
    agentId: session.agentId,
    view,
    leafUuid,
    epochCount: session.epochs.length,
    includedEpochs: path.epochs,
    compactions: session.compactions.map(describeCompaction),
    pathRecords: path.records.length,
    attachedRecords: path.attachedCount,
    orphanCount: session.orphans.length,
    sidechainCount: session.sidechains.length,
    abandonedBranchCount: session.abandonedBranches.length,
    droppedToolCalls: assembled.droppedToolCalls,
    droppedToolResponses: assembled.droppedToolResponses,
    unsupportedBlocks: assembled.unsupportedBlocks.length === 0 ? undefined : (assembled.unsupportedBlocks as unknown as JsonValue),
    statistics: {
      lines: statistics.lines,
      records: statistics.records,
      malformedLines: statistics.malformedLines,
      recordTypes: statistics.recordTypes,
      systemSubtypes: statistics.systemSubtypes,
      unknownTypes: statistics.unknownTypes,
      messages: statistics.messages,
      toolCalls: statistics.toolCalls,
      toolResults: statistics.toolResults,
      compactBoundaries: statistics.compactBoundaries,
      compactSummaries: statistics.compactSummaries,
      sidechainRecords: statistics.sidechainRecords,
      toolUseResultRecords: statistics.toolUseResultRecords,
      versions: statistics.versions,
      sessionIds: statistics.sessionIds,
    },
    warningCount: warnings.length,
  });

  return { conversation: { history: assembled.history, providerMetadata: { claudeCode } }, warnings };
}
