import type { HistoryEntry } from '@ctx/core';

/** Where a tool call sits in a history. */
export interface ToolCallLocation {
  /** The call's id: what a watermark stores. */
  readonly callId: string;
  readonly toolName: string;
  /** Index of the `ai` entry holding the call. */
  readonly entryIndex: number;
  /** Index of the call among that entry's blocks. */
  readonly blockIndex: number;
}

/** Options of {@link findCheckpointCall}. */
export interface FindCheckpointCallOptions {
  /** Names of the checkpoint tools, matched exactly. */
  readonly toolNames: Iterable<string>;
  /**
   * The current watermark (a call id): only calls after it count. Undefined or empty searches from the start of
   * the history (spec 003 edge case 4).
   */
  readonly after?: string | undefined;
}

function* toolCallsFrom(
  history: readonly HistoryEntry[],
  entryIndex: number,
  blockIndex: number,
): Generator<ToolCallLocation> {
  for (let index = entryIndex; index < history.length; index++) {
    const blocks = (history[index] as HistoryEntry).blocks;
    for (let position = index === entryIndex ? blockIndex : 0; position < blocks.length; position++) {
      const block = blocks[position];
      if (block?.type === 'tool_call') {
        yield { callId: block.id, toolName: block.name, entryIndex: index, blockIndex: position };
      }
    }
  }
}

/**
 * Finds the first tool call with the id `callId`. Ids are unique in Anthropic and OpenAI histories; a history that
 * repeats one (some trajectory formats do) gets its first occurrence, as spec 003's search does. Linear.
 *
 * @param history - The canonical history.
 * @param callId - The id to look for.
 * @returns Where the call is, or undefined when no call has that id.
 * @example
 * ```ts
 * findToolCall(history, 'toolu_abc123xyz'); // { callId: 'toolu_abc123xyz', toolName: '…', entryIndex: 1, blockIndex: 0 }
 * ```
 */
export function findToolCall(history: readonly HistoryEntry[], callId: string): ToolCallLocation | undefined {
  for (const call of toolCallsFrom(history, 0, 0)) if (call.callId === callId) return call;
  return undefined;
}

/**
 * Finds the first call of a checkpoint tool after the watermark (spec 003 §4, `_find_tool_use_id_after_watermark`).
 * "After" means after the watermark's call itself: a later call in the same assistant message counts, the
 * watermark call does not. (Spec 003's code also searches the message holding the watermark from its start, so it
 * finds the watermark call again when the same tool is checkpointed twice, and the watermark never advances — the
 * opposite of its own edge case 3.) Linear.
 *
 * @param history - The canonical history.
 * @param options - The checkpoint tool names and the current watermark.
 * @returns The checkpoint call, or undefined when there is none after the watermark, or when the watermark is not in
 *   the history (spec 003: nothing is "after" a watermark that cannot be found).
 * @example
 * ```ts
 * findCheckpointCall(history, { toolNames: ['compress_to_checkpoint'], after: 'toolu_111' })?.callId; // 'toolu_222'
 * ```
 */
export function findCheckpointCall(
  history: readonly HistoryEntry[],
  options: FindCheckpointCallOptions,
): ToolCallLocation | undefined {
  const names = new Set(options.toolNames);
  if (names.size === 0) return undefined;
  let start = { entryIndex: 0, blockIndex: 0 };
  if (options.after !== undefined && options.after !== '') {
    const watermark = findToolCall(history, options.after);
    if (watermark === undefined) return undefined;
    start = { entryIndex: watermark.entryIndex, blockIndex: watermark.blockIndex + 1 };
  }
  for (const call of toolCallsFrom(history, start.entryIndex, start.blockIndex)) {
    if (names.has(call.toolName)) return call;
  }
  return undefined;
}

/**
 * Finds the newest call of a checkpoint tool: where the watermark ends up after every checkpoint in the history
 * has been resolved in turn, so the stateless strategy can re-derive it after a restart (spec 003 "Future
 * Enhancements 3"). Position-based, so it is exact even when call ids repeat. Linear; scans from the end.
 *
 * @param history - The canonical history.
 * @param options - The checkpoint tool names.
 * @returns The newest checkpoint call, or undefined when the history has none.
 * @example
 * ```ts
 * findLatestCheckpointCall(history, { toolNames: ['TodoWrite'] })?.entryIndex; // 212
 * ```
 */
export function findLatestCheckpointCall(
  history: readonly HistoryEntry[],
  options: Pick<FindCheckpointCallOptions, 'toolNames'>,
): ToolCallLocation | undefined {
  const names = new Set(options.toolNames);
  if (names.size === 0) return undefined;
  for (let entryIndex = history.length - 1; entryIndex >= 0; entryIndex--) {
    const blocks = (history[entryIndex] as HistoryEntry).blocks;
    for (let blockIndex = blocks.length - 1; blockIndex >= 0; blockIndex--) {
      const block = blocks[blockIndex];
      if (block?.type === 'tool_call' && names.has(block.name)) {
        return { callId: block.id, toolName: block.name, entryIndex, blockIndex };
      }
    }
  }
  return undefined;
}
