import type { HistoryEntry } from '@ctx/core';

/**
 * One assistant turn: the run of consecutive `ai` entries (providers merge them into one message) and the run of
 * `tool` entries right after it, which answers its calls — the same grouping `findToolPairingProblems` checks.
 * Indices are into the history; `end` is exclusive.
 */
export interface AssistantTurn {
  /** Index of the first `ai` entry. */
  readonly start: number;
  /** Index of the first `tool` entry answering the turn (equal to `end` when there is none). */
  readonly toolStart: number;
  /** Index after the turn's last entry. */
  readonly end: number;
  /** Ids of the turn's tool calls, in order. */
  readonly callIds: readonly string[];
}

/**
 * Lists the assistant turns of a history, in order. `tool` entries that follow a `human` entry belong to no turn
 * (they are orphans). Linear in the number of entries and blocks.
 *
 * @param history - The canonical history.
 * @returns One span per assistant turn.
 * @example
 * ```ts
 * listAssistantTurns([human, aiWithCall, toolResult, aiAnswer]);
 * // [{ start: 1, toolStart: 2, end: 3, callIds: ['c1'] }, { start: 3, toolStart: 4, end: 4, callIds: [] }]
 * ```
 */
export function listAssistantTurns(history: readonly HistoryEntry[]): AssistantTurn[] {
  const turns: AssistantTurn[] = [];
  let index = 0;
  while (index < history.length) {
    if (history[index]?.speaker !== 'ai') {
      index++;
      continue;
    }
    const start = index;
    const callIds: string[] = [];
    while (index < history.length && history[index]?.speaker === 'ai') {
      for (const block of (history[index] as HistoryEntry).blocks) if (block.type === 'tool_call') callIds.push(block.id);
      index++;
    }
    const toolStart = index;
    while (index < history.length && history[index]?.speaker === 'tool') index++;
    turns.push({ start, toolStart, end: index, callIds });
  }
  return turns;
}
