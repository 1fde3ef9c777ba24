import type { FormatWarning, JsonValue } from '@ctx/core';
import type { ClaudeCodeRecord } from './claude-code-record.js';

/**
 * One compaction: Claude Code replaced the conversation so far by a summary and started a new epoch.
 *
 * Three forms are read: `compact-boundary` (a `system` record with `subtype: 'compact_boundary'`, its
 * `compactMetadata` and `logicalParentUuid`, then a `user` record with `isCompactSummary: true`),
 * `legacy-summary` (older versions: a new root `user` record with `isCompactSummary: true`, no boundary record) and
 * `compact-system` (spec 001: `compact_system` records `conversation_compacting` / `conversation_compacted` /
 * `conversation_restored`).
 */
export interface ClaudeCodeCompaction {
  /** 1-based, in file order. */
  readonly number: number;
  readonly form: 'compact-boundary' | 'legacy-summary' | 'compact-system';
  /** The epoch this compaction starts. */
  readonly epoch: number;
  /** Line of the record that starts the compaction (boundary, legacy summary, or `conversation_compacting`). */
  readonly line: number;
  readonly uuid?: string;
  readonly timestamp?: string;
  /** `manual` (`/compact`) or `auto` as Claude Code wrote it (spec 001 writes `automatic`). */
  readonly trigger?: string;
  /** Tokens in the context when the compaction ran (`compactMetadata.preTokens`, spec 001 `tokenCount`). */
  readonly preTokens?: number;
  /** The last record before the compaction, as the file names it. */
  readonly logicalParentUuid?: string;
  /** False when `logicalParentUuid` names a record that is not in the file. */
  readonly logicalParentFound?: boolean;
  /** The `user` record that holds the summary the model saw, if any. */
  readonly summaryUuid?: string;
  readonly summaryLine?: number;
  /** Spec 001 `conversation_compacted` metadata (`preservedMessages`, `totalMessages`, …), verbatim. */
  readonly metadata?: JsonValue;
  /**
   * Messages from before the compaction that the model kept seeing verbatim after it (a partial compaction):
   * `compactMetadata.preservedSegment` of a boundary. The segment runs from `headUuid` to `tailUuid` along
   * `parentUuid` and follows `anchorUuid` (the summary, or the boundary itself) in what the model saw; the records
   * after the compaction continue from the tail.
   */
  readonly preservedSegment?: ClaudeCodePreservedSegment;
  /** Spec 001 `metadata.preservedMessages`: how many of the last messages before the compaction were kept. */
  readonly preservedMessages?: number;
  /** Spec 001: false while only `conversation_compacting` was seen. */
  readonly completed: boolean;
  /** Spec 001: a `conversation_restored` record followed. */
  readonly restored: boolean;
}

/** `compactMetadata.preservedSegment` of a Claude Code compaction boundary. */
export interface ClaudeCodePreservedSegment {
  /** The first preserved record. */
  readonly headUuid: string;
  /** The record the head follows after the compaction: the summary, or the boundary itself. */
  readonly anchorUuid: string;
  /** The last preserved record at the time of the compaction. */
  readonly tailUuid: string;
}

/** Why a record is treated as a root although it names a parent (spec 001 "orphaned messages"). */
export type ClaudeCodeOrphanReason =
  /** `parentUuid` names a record that is not in the file (e.g. a subagent file pointing into the main session). */
  | 'missing-parent'
  /** `parentUuid` names a record of an earlier epoch: the compaction cut the link (spec 001 test scenario). */
  | 'parent-in-previous-epoch'
  /** A compaction root whose `logicalParentUuid` names a record that is not in the file. */
  | 'missing-logical-parent';

/** A record treated as a root of the conversation tree although it names a parent. */
export interface ClaudeCodeOrphan {
  readonly uuid: string;
  readonly line: number;
  readonly type: string;
  readonly epoch?: number;
  readonly reason: ClaudeCodeOrphanReason;
  /** The parent (or logical parent) it names. */
  readonly missingUuid: string;
  readonly isSidechain: boolean;
}

/** One conversation epoch: the records between two compactions (spec 001 `reconstruct_session`). */
export interface ClaudeCodeEpoch {
  /** 1-based. */
  readonly number: number;
  /** The compaction that started it (undefined for the first epoch). */
  readonly compaction?: number;
  /** Undefined when the epoch has no records (e.g. a compaction at the end of the file). */
  readonly firstLine?: number;
  readonly lastLine?: number;
  readonly recordCount: number;
  /** User and assistant records. */
  readonly messageCount: number;
  /** Records that start a tree: `parentUuid: null`, or orphaned. */
  readonly rootCount: number;
  readonly orphanCount: number;
  readonly hasOrphans: boolean;
}

/**
 * A subagent conversation kept apart from the main chain: inline records with `isSidechain: true` (older versions)
 * or a whole `subagents/agent-*.jsonl` file read on its own. Convert it with
 * `convertClaudeCodeSession(session, { leafUuid: sidechain.leafUuid })`.
 */
export interface ClaudeCodeSidechain {
  /** The `agentId`, or the root record's uuid for inline sidechains without one. */
  readonly id: string;
  readonly agentId?: string;
  readonly rootUuid: string;
  readonly firstLine: number;
  readonly lastLine: number;
  readonly recordCount: number;
  readonly messageCount: number;
  /** The last user or assistant record of the sidechain: convert from here. */
  readonly leafUuid: string;
  /** The main-session `Task` call whose prompt started it, when the prompt text matches one. */
  readonly taskCallId?: string;
}

/**
 * A branch of the main conversation the model did not continue from: a rewind or an edited message forked the
 * `parentUuid` tree and the conversation went on elsewhere. Convert it with
 * `convertClaudeCodeSession(session, { leafUuid: branch.leafUuid })`.
 */
export interface ClaudeCodeBranch {
  /** The first record of the branch. */
  readonly rootUuid: string;
  readonly rootLine: number;
  /** The record of the chosen path it forks from; undefined when the branch starts at a root or orphan. */
  readonly forkUuid?: string;
  /** Its last user or assistant record. */
  readonly leafUuid: string;
  readonly recordCount: number;
  readonly messageCount: number;
}

/** A record joined to the conversation across malformed lines (see {@link ClaudeCodeMalformedLine}). */
export interface ClaudeCodeReconnection {
  /** Line of the record whose parent was lost. */
  readonly line: number;
  readonly uuid: string;
  /** The parent it names, which was on a malformed line. */
  readonly missingParentUuid: string;
  /** The malformed lines bridged, ascending. */
  readonly acrossLines: readonly number[];
  /** The record it now follows; undefined when the lost record was a root, so this one starts the tree. */
  readonly parentUuid?: string;
  readonly parentLine?: number;
  /**
   * How the parent was found: the parent the damaged line itself still names (`named-by-damaged-line`), or the
   * last record of the same lane before the damage (`file-order`).
   */
  readonly method: 'named-by-damaged-line' | 'file-order';
}

/**
 * A line that could not be read as a record, what it held as far as the raw text shows, and what it cost: the
 * records that were joined across it, and those that could not be.
 */
export interface ClaudeCodeMalformedLine {
  /** 1-based line number. */
  readonly line: number;
  /** Why it could not be read, e.g. `not valid JSON (Unexpected end of JSON input)`. */
  readonly problem: string;
  /** What the line held, e.g. `a user message ("Fix the failing test")`, `an assistant tool call (Read)`. */
  readonly held: string;
  /** The record type and uuid, when the raw text still shows them. */
  readonly type?: string;
  readonly uuid?: string;
  /** Records whose parent chain ran through this line and were joined across it. */
  readonly reconnected: readonly ClaudeCodeReconnection[];
  /** Lines of records whose parent was lost here and that could not be joined (a compaction lies between): roots now. */
  readonly cutOff: readonly number[];
}

/** Counts over every line of the file. */
export interface ClaudeCodeFileStatistics {
  /** Lines read, including empty and malformed ones. */
  readonly lines: number;
  readonly records: number;
  readonly malformedLines: number;
  /** Records per `type`, e.g. `{ progress: 1333, assistant: 299, … }`. */
  readonly recordTypes: Readonly<Record<string, number>>;
  /** Records per `system` subtype, e.g. `{ compact_boundary: 1, turn_duration: 2 }`. */
  readonly systemSubtypes: Readonly<Record<string, number>>;
  /** Types not in {@link knownClaudeCodeRecordTypes}, with their counts. */
  readonly unknownTypes: Readonly<Record<string, number>>;
  /** User and assistant records (all lanes). */
  readonly messages: number;
  /** `tool_use` blocks in assistant records (all lanes). */
  readonly toolCalls: number;
  /** `tool_result` blocks in user records (all lanes). */
  readonly toolResults: number;
  readonly compactBoundaries: number;
  readonly compactSummaries: number;
  readonly sidechainRecords: number;
  /**
   * Records carrying `toolUseResult`: Claude Code's own copy of a tool's output. It duplicates what the model saw
   * in the `tool_result` block, so it is counted here and not copied into the converted history.
   */
  readonly toolUseResultRecords: number;
  /** Distinct Claude Code versions (`version`), in order of appearance. */
  readonly versions: readonly string[];
  /** Distinct `sessionId` values, in order of appearance (one for a healthy file). */
  readonly sessionIds: readonly string[];
}

/**
 * A Claude Code session file read into a tree: records, epochs and compactions, orphans, the path the model saw,
 * sidechains and abandoned branches. Built by `parseClaudeCodeSession` or a `ClaudeCodeSessionReader`; convert it
 * to the canonical history with `convertClaudeCodeSession`.
 */
export interface ClaudeCodeSession {
  /** `session` for a main session file; `subagent` for a `subagents/agent-*.jsonl` file (every record a sidechain). */
  readonly kind: 'session' | 'subagent';
  readonly sessionId?: string;
  /** The subagent id of a `subagent` file (`acompact-…` ids are Claude Code's own compaction requests). */
  readonly agentId?: string;
  readonly records: readonly ClaudeCodeRecord[];
  readonly recordsByUuid: ReadonlyMap<string, ClaudeCodeRecord>;
  /** Malformed lines, unknown record types, orphans and duplicate uuids, in line order. */
  readonly warnings: readonly FormatWarning[];
  /** Every line that could not be read, with what it held and how the conversation was joined across it. */
  readonly malformedLines: readonly ClaudeCodeMalformedLine[];
  readonly statistics: ClaudeCodeFileStatistics;
  readonly compactions: readonly ClaudeCodeCompaction[];
  readonly epochs: readonly ClaudeCodeEpoch[];
  readonly orphans: readonly ClaudeCodeOrphan[];
  /** The last user or assistant record of the main lane: the end of what the model saw. */
  readonly leafUuid?: string;
  /**
   * Uuids of the records the model saw, across all epochs, in file order: the branch that leads to `leafUuid`
   * (following `logicalParentUuid` across compactions) plus the records of the same API responses and the tool
   * results Claude Code stored on sibling branches.
   */
  readonly mainPath: readonly string[];
  readonly sidechains: readonly ClaudeCodeSidechain[];
  readonly abandonedBranches: readonly ClaudeCodeBranch[];
}
