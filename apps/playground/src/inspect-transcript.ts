import { createTokenCounter, type FormatWarning, type Tokenizer } from '@ctx/core';
import { summarizeClaudeCodeSession, type ClaudeCodeCompaction } from '@ctx/format-claude-code';
import { classifyHistoryToolCalls, inferWorkspaceRoot, type ToolCallKind } from '@ctx/strategy-utils';
import type { LoadedTranscript, TranscriptFormat } from './read-transcripts.js';
import { toInputWarningsJson, type InputWarningJson } from './report-input-warnings.js';

/** What `ctx inspect` reports for one transcript. Plain JSON. */
export interface TranscriptInspection {
  readonly file: string;
  readonly format: TranscriptFormat;
  /** Entries of the canonical history. */
  readonly entries: number;
  readonly bySpeaker: { readonly human: number; readonly ai: number; readonly tool: number };
  readonly toolCalls: number;
  readonly toolCallsByKind: Readonly<Partial<Record<ToolCallKind, number>>>;
  /** Tool results that report a failure. */
  readonly toolErrors: number;
  /** Request tokens (history, system, tools) with the given tokenizer. */
  readonly tokens: number;
  /** The part of `tokens` taken by the history alone. */
  readonly historyTokens: number;
  readonly tokenizer: string;
  readonly epochs: number;
  readonly compactions: number;
  readonly compactionDetails: readonly { readonly trigger?: string; readonly preTokens?: number; readonly form: string }[];
  readonly orphans: number;
  readonly sidechains: number;
  readonly abandonedBranches: number;
  readonly malformedLines: number;
  /** Distinct files read, written (created, edited, deleted), and read more than once. */
  readonly filesRead: number;
  readonly filesWritten: number;
  readonly filesReread: number;
  readonly maxReadsOfOneFile: number;
  /** How many warnings of each type the reader reported. */
  readonly warningCounts: Readonly<Partial<Record<FormatWarning['type'], number>>>;
  /** Every warning the reader reported, in order, with its line (or path) where it has one. */
  readonly warnings: readonly InputWarningJson[];
}

function count<K extends string>(counter: Partial<Record<K, number>>, key: K): void {
  counter[key] = (counter[key] ?? 0) + 1;
}

function describeCompaction(compaction: ClaudeCodeCompaction): TranscriptInspection['compactionDetails'][number] {
  return {
    form: compaction.form,
    ...(compaction.trigger === undefined ? {} : { trigger: compaction.trigger }),
    ...(compaction.preTokens === undefined ? {} : { preTokens: compaction.preTokens }),
  };
}

/**
 * Inspects one transcript: entries by speaker, tool calls by kind (from `@ctx/strategy-utils`), tokens, epochs and
 * compactions, orphans, sidechains, files read / written / re-read, warnings.
 */
export function inspectTranscript(transcript: LoadedTranscript, tokenizer: Tokenizer): TranscriptInspection {
  const { conversation } = transcript;
  const counter = createTokenCounter(tokenizer);
  const bySpeaker = { human: 0, ai: 0, tool: 0 };
  for (const entry of conversation.history) bySpeaker[entry.speaker] += 1;

  const toolCallsByKind: Partial<Record<ToolCallKind, number>> = {};
  const readsPerFile = new Map<string, number>();
  const written = new Set<string>();
  let toolErrors = 0;
  const calls = classifyHistoryToolCalls(conversation.history, { workspaceRoot: inferWorkspaceRoot(conversation.history) });
  for (const { semantics, response } of calls) {
    count(toolCallsByKind, semantics.kind);
    if (response?.outcome.outcome === 'error') toolErrors += 1;
    for (const access of semantics.reads) readsPerFile.set(access.path, (readsPerFile.get(access.path) ?? 0) + 1);
    for (const access of semantics.writes) written.add(access.path);
  }

  const warningCounts: Partial<Record<FormatWarning['type'], number>> = {};
  for (const warning of transcript.warnings) count(warningCounts, warning.type);
  const historyTokens = counter.countEntries(conversation.history);

  const session = transcript.claudeCode === undefined ? undefined : summarizeClaudeCodeSession(transcript.claudeCode);
  return {
    file: transcript.label,
    format: transcript.format,
    entries: conversation.history.length,
    bySpeaker,
    toolCalls: calls.length,
    toolCallsByKind,
    toolErrors,
    tokens: historyTokens + counter.countOverhead(conversation.system, conversation.tools),
    historyTokens,
    tokenizer: tokenizer.name,
    epochs: session?.epochs.length ?? 1,
    compactions: session?.compactions.length ?? 0,
    compactionDetails: session?.compactions.map(describeCompaction) ?? [],
    orphans: session?.orphans.length ?? 0,
    sidechains: session?.sidechains.length ?? 0,
    abandonedBranches: session?.abandonedBranches.length ?? 0,
    malformedLines: session?.malformedLines.length ?? warningCounts.malformed ?? 0,
    filesRead: readsPerFile.size,
    filesWritten: written.size,
    filesReread: [...readsPerFile.values()].filter((reads) => reads > 1).length,
    maxReadsOfOneFile: Math.max(0, ...readsPerFile.values()),
    warningCounts,
    warnings: toInputWarningsJson(transcript.warnings),
  };
}
