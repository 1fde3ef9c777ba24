import type { DecodeResult, FormatWarning, JsonValue } from '@ctx/core';
import type {
  ClaudeCodeBranch,
  ClaudeCodeCompaction,
  ClaudeCodeEpoch,
  ClaudeCodeOrphan,
  ClaudeCodeSession,
  ClaudeCodeSidechain,
} from './claude-code-session.js';
import { convertClaudeCodeSession, type ClaudeCodeView } from './convert-claude-code-session.js';
import { countName, type NameCounts } from './name-counts.js';

/** What `ctx inspect` shows for a Claude Code session. Plain JSON. */
export interface ClaudeCodeSessionSummary {
  readonly kind: ClaudeCodeSession['kind'];
  readonly sessionId?: string;
  readonly agentId?: string;
  readonly view: ClaudeCodeView;
  /** Entries of the converted history by speaker. */
  readonly entries: { readonly total: number; readonly human: number; readonly ai: number; readonly tool: number };
  /** Human entries by `textKind` (`typed`, `meta`, `command`, …). */
  readonly humanTextKinds: Readonly<Record<string, number>>;
  /** Tool calls of the converted history by tool name, and how many results were errors. */
  readonly toolCalls: { readonly total: number; readonly errors: number; readonly byName: Readonly<Record<string, number>> };
  readonly epochs: readonly ClaudeCodeEpoch[];
  readonly compactions: readonly ClaudeCodeCompaction[];
  readonly orphans: readonly ClaudeCodeOrphan[];
  readonly sidechains: readonly ClaudeCodeSidechain[];
  readonly abandonedBranches: readonly ClaudeCodeBranch[];
  readonly recordTypes: Readonly<Record<string, number>>;
  readonly unknownTypes: Readonly<Record<string, number>>;
  /** Line numbers of malformed lines. */
  readonly malformedLines: readonly number[];
  readonly toolUseResultRecords: number;
  /** Warnings by type (`lossy`, `unsupported`, `malformed`, `other`). */
  readonly warnings: Readonly<Record<FormatWarning['type'], number>>;
}

/** Options of {@link summarizeClaudeCodeSession}. */
export interface SummarizeClaudeCodeSessionOptions {
  /**
   * The view the entry and tool counts are taken from.
   * @default 'whole-session'
   */
  readonly view?: ClaudeCodeView;
  /** An already converted result of that view, to avoid converting twice. */
  readonly decoded?: DecodeResult;
}

/**
 * Summarizes a session for inspection: entries by speaker, tool calls by name, epochs and compactions (trigger,
 * preTokens), orphans, sidechains, abandoned branches, record-type counts and malformed lines.
 *
 * @param session - A parsed session.
 * @param options - The view to count entries in.
 * @returns A JSON summary; render it with `formatClaudeCodeSessionSummary`.
 * @example
 * ```ts
 * console.log(formatClaudeCodeSessionSummary(summarizeClaudeCodeSession(session)));
 * ```
 */
export function summarizeClaudeCodeSession(
  session: ClaudeCodeSession,
  options: SummarizeClaudeCodeSessionOptions = {},
): ClaudeCodeSessionSummary {
  const view = options.view ?? 'whole-session';
  const decoded = options.decoded ?? convertClaudeCodeSession(session, { view });
  const entries = { total: 0, human: 0, ai: 0, tool: 0 };
  const humanTextKinds: NameCounts = new Map();
  const byName: NameCounts = new Map();
  let calls = 0;
  let errors = 0;
  for (const entry of decoded.conversation.history) {
    entries.total += 1;
    entries[entry.speaker] += 1;
    if (entry.speaker === 'human') {
      const textKind: JsonValue | undefined = entry.metadata?.providerMetadata?.claudeCode?.textKind;
      countName(humanTextKinds, typeof textKind === 'string' ? textKind : 'unknown');
    }
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        calls += 1;
        countName(byName, block.name);
      } else if (block.type === 'tool_response' && block.isError === true) {
        errors += 1;
      }
    }
  }
  const warnings: Record<FormatWarning['type'], number> = { lossy: 0, unsupported: 0, malformed: 0, other: 0 };
  for (const warning of decoded.warnings) warnings[warning.type] += 1;
  return {
    kind: session.kind,
    ...(session.sessionId === undefined ? {} : { sessionId: session.sessionId }),
    ...(session.agentId === undefined ? {} : { agentId: session.agentId }),
    view,
    entries,
    humanTextKinds: Object.fromEntries(humanTextKinds),
    toolCalls: { total: calls, errors, byName: Object.fromEntries(byName) },
    epochs: session.epochs,
    compactions: session.compactions,
    orphans: session.orphans,
    sidechains: session.sidechains,
    abandonedBranches: session.abandonedBranches,
    recordTypes: session.statistics.recordTypes,
    unknownTypes: session.statistics.unknownTypes,
    malformedLines: session.warnings.flatMap((warning) =>
      warning.type === 'malformed' && warning.line !== undefined ? [warning.line] : [],
    ),
    toolUseResultRecords: session.statistics.toolUseResultRecords,
    warnings,
  };
}
