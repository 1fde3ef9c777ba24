import type { HistoryEntry, ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import { listAssistantTurns } from './assistant-turns.js';
import { classifyToolCall, type ClassifyToolCallOptions } from './classify-tool-call.js';
import { classifyToolResult, type ToolResultClassification } from './classify-tool-result.js';
import { normalizeToolPath } from './normalize-tool-path.js';
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
  for (const turn of listAssistantTurns(history)) {
    const responses = new Map<string, Omit<ClassifiedToolResponse, 'outcome'>>();
    for (let entryIndex = turn.toolStart; entryIndex < turn.end; entryIndex++) {
      (history[entryIndex] as HistoryEntry).blocks.forEach((block, blockIndex) => {
        if (block.type === 'tool_response' && !responses.has(block.callId)) {
          responses.set(block.callId, { entryIndex, blockIndex, block });
        }
      });
    }
    for (let entryIndex = turn.start; entryIndex < turn.toolStart; entryIndex++) {
      (history[entryIndex] as HistoryEntry).blocks.forEach((block, blockIndex) => {
        if (block.type !== 'tool_call') return;
        const semantics = classifyToolCall(block, {
          ...options,
          ...(openFile === undefined ? {} : { openFile }),
        });
        if (semantics.openedFile !== undefined) openFile = semantics.openedFile;
        const found = responses.get(block.id);
        if (found === undefined) {
          records.push({ entryIndex, blockIndex, call: block, semantics });
          return;
        }
        const reported = reportedOpenFile(found.block);
        if (reported === null) openFile = undefined;
        else if (reported !== undefined) openFile = normalizeToolPath(reported, options.workspaceRoot);
        records.push({
          entryIndex,
          blockIndex,
          call: block,
          semantics,
          response: { ...found, outcome: classifyToolResult(found.block, block) },
        });
      });
    }
  }
  return records;
}
