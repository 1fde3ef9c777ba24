import type { HistoryEntry, ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import { listAssistantTurns } from './assistant-turns.js';
import type { ClassifyToolCallOptions } from './classify-tool-call.js';
import { classifyToolResult, type ToolResultClassification } from './classify-tool-result.js';
import { isValidatedEntry } from './history/is-validated-entry.js';
import { normalizeToolPath } from './normalize-tool-path.js';
import { classifyRememberedToolCall } from './remembered-tool-call-semantics.js';
import type { ToolCallSemantics } from './tool-call-semantics.js';
import { toolResultText } from './tool-result-text.js';

/** The response that answers a call, where it is, and whether it reports a failure. */
export interface ClassifiedToolResponse {
  readonly entryIndex: number;
  readonly blockIndex: number;
  readonly block: ToolResponseBlock;
  readonly outcome: ToolResultClassification;
}

/** One tool call of a history with its semantics and its response. */
export interface ClassifiedToolCall {
  /** Index of the `ai` entry holding the call. */
  readonly entryIndex: number;
  /** Index of the call among that entry's blocks. */
  readonly blockIndex: number;
  readonly call: ToolCallBlock;
  readonly semantics: ToolCallSemantics;
  /** The first response to the call in the tool entries of its turn; undefined for an unanswered call. */
  readonly response?: ClassifiedToolResponse;
}

/** Options of {@link classifyHistoryToolCalls}: those of {@link classifyToolCall} without the editor state. */
export type ClassifyHistoryToolCallsOptions = Omit<ClassifyToolCallOptions, 'openFile'>;

const openFileLine = /\(Open file: ([^)\n]*)\)/g;

/** The `(Open file: /path)` line SWE-agent appends to observations; `n/a` means none. */
function reportedOpenFile(response: ToolResponseBlock): string | null | undefined {
  const text = toolResultText(response.result);
  if (!text.includes('(Open file: ')) return undefined;
  let last: string | undefined;
  for (const match of text.matchAll(openFileLine)) last = match[1];
  if (last === undefined) return undefined;
  return last.trim() === 'n/a' ? null : last.trim();
}

/*
 * Strategies classify the same history several times per call (file folds, superseded content, tool kinds per pass)
 * and again on the next turn, when it has grown by a few entries. The parts of blocks in validated (immutable)
 * entries are kept by block: a call's semantics (`classifyRememberedToolCall`, shared with every other caller), a
 * response's `(Open file: …)` line, and its outcome for the call it answered. Weak maps: blocks that leave every
 * history go.
 */
const keptOpenFiles = new WeakMap<ToolResponseBlock, string | null | undefined>();
const keptOutcomes = new WeakMap<ToolResponseBlock, { readonly call: ToolCallBlock; readonly outcome: ToolResultClassification }>();

function openFileReportedBy(response: ToolResponseBlock, kept: boolean): string | null | undefined {
  if (kept && keptOpenFiles.has(response)) return keptOpenFiles.get(response);
  const reported = reportedOpenFile(response);
  if (kept) keptOpenFiles.set(response, reported);
  return reported;
}

function outcomeOf(response: ToolResponseBlock, call: ToolCallBlock, kept: boolean): ToolResultClassification {
  if (kept) {
    const found = keptOutcomes.get(response);
    if (found !== undefined && found.call === call) return found.outcome;
  }
  const outcome = classifyToolResult(response, call);
  if (kept) keptOutcomes.set(response, { call, outcome });
  return outcome;
}

/**
 * Classifies every tool call of a history in order, pairs each with its response (same turn, same call id) and
 * that response's outcome.
 *
 * Unlike {@link classifyToolCall} alone, it carries SWE-agent's editor state from call to call: the file opened by
 * `open`/`create` (and reported by the `(Open file: …)` line of SWE-agent observations) is the file later `edit`,
 * `insert`, `goto` and `scroll_*` calls act on. The shell's working directory is not carried between calls: each
 * command starts in `workspaceRoot` (agents that keep a persistent shell and `cd` in one call and use relative
 * paths in the next are resolved against the workspace). Linear in the size of the history.
 *
 * @param history - The canonical history.
 * @param options - `workspaceRoot` and an optional `registry`.
 * @returns One record per tool call, in history order.
 * @throws Whatever a classifier you registered throws.
 * @example
 * ```ts
 * for (const { semantics, response } of classifyHistoryToolCalls(history, { workspaceRoot: '/repo' })) {
 *   if (semantics.kind === 'read' && response?.outcome.outcome === 'success') console.log(semantics.reads);
 * }
 * ```
 */
export function classifyHistoryToolCalls(
  history: readonly HistoryEntry[],
  options: ClassifyHistoryToolCallsOptions,
): ClassifiedToolCall[] {
  const records: ClassifiedToolCall[] = [];
  let openFile: string | undefined;
  // One options object per editor state, not one per call.
  let classifyOptions: ClassifyToolCallOptions = options;
  const responses = new Map<string, Omit<ClassifiedToolResponse, 'outcome'> & { readonly kept: boolean }>();
  for (const turn of listAssistantTurns(history)) {
    responses.clear();
    for (let entryIndex = turn.toolStart; entryIndex < turn.end; entryIndex++) {
      const entry = history[entryIndex] as HistoryEntry;
      const kept = isValidatedEntry(entry);
      const blocks = entry.blocks;
      for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
        const block = blocks[blockIndex] as HistoryEntry['blocks'][number];
        if (block.type === 'tool_response' && !responses.has(block.callId)) {
          responses.set(block.callId, { entryIndex, blockIndex, block, kept });
        }
      }
    }
    for (let entryIndex = turn.start; entryIndex < turn.toolStart; entryIndex++) {
      const entry = history[entryIndex] as HistoryEntry;
      const kept = isValidatedEntry(entry);
      const blocks = entry.blocks;
      for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
        const block = blocks[blockIndex] as HistoryEntry['blocks'][number];
        if (block.type !== 'tool_call') continue;
        const semantics = classifyRememberedToolCall(block, classifyOptions, kept);
        let opened = openFile;
        if (semantics.openedFile !== undefined) opened = semantics.openedFile;
        const found = responses.get(block.id);
        if (found === undefined) {
          records.push({ entryIndex, blockIndex, call: block, semantics });
        } else {
          const reported = openFileReportedBy(found.block, found.kept);
          if (reported === null) opened = undefined;
          else if (reported !== undefined) opened = normalizeToolPath(reported, options.workspaceRoot);
          records.push({
            entryIndex,
            blockIndex,
            call: block,
            semantics,
            response: {
              entryIndex: found.entryIndex,
              blockIndex: found.blockIndex,
              block: found.block,
              outcome: outcomeOf(found.block, block, kept && found.kept),
            },
          });
        }
        if (opened !== openFile) {
          openFile = opened;
          classifyOptions = openFile === undefined ? options : { ...options, openFile };
        }
      }
    }
  }
  return records;
}
