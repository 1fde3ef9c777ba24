import type { HistoryEntry } from '@ctx/core';

/** Index range `[start, end)` of the `ai` entries of the assistant turn still in its tool loop. */
export interface OpenToolTurn {
  readonly start: number;
  readonly end: number;
}

/**
 * Finds the assistant turn still in its tool loop: the last run of `ai` entries, when it calls tools and the history
 * ends with the `tool` entries answering it (the model has not answered those results yet). With extended thinking
 * on, Anthropic rejects a request whose assistant message in that position lost its thinking block, so that turn's
 * thinking must be kept whatever the zones say. Linear in the length of that turn.
 *
 * @param history - The history.
 * @returns The turn's `ai` entries, or undefined when the history does not end inside a tool loop.
 * @example
 * ```ts
 * // human | ai (thinking) | ai (call b) | tool (result b)
 * findOpenToolTurn(history); // { start: 1, end: 3 }
 * ```
 */
export function findOpenToolTurn(history: readonly HistoryEntry[]): OpenToolTurn | undefined {
  let end = history.length;
  while (end > 0 && history[end - 1]?.speaker === 'tool') end--;
  if (end === history.length) return undefined;
  let start = end;
  while (start > 0 && history[start - 1]?.speaker === 'ai') start--;
  const callsTools = history.slice(start, end).some((entry) => entry.blocks.some((block) => block.type === 'tool_call'));
  return callsTools ? { start, end } : undefined;
}
