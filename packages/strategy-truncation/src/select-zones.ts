import type { HistoryEntry } from '@ctx/core';

/**
 * The three zones of spec 004 FR-TR-001, as index ranges of the history: the first message `[0, oldStart)`, the old
 * zone `[oldStart, oldEnd)` (the only part the strategy changes) and the recent zone `[oldEnd, length)`.
 */
export interface TruncationZones {
  readonly oldStart: number;
  readonly oldEnd: number;
}

/**
 * Splits a history into the first message, the old zone and the `preserveRecentCount` most recent messages. A
 * message is a run of consecutive entries of one speaker, which is how providers see them: Claude Code stores one
 * assistant response as several `ai` entries and each tool result as its own `tool` entry, while an OpenAI history
 * has one assistant message per turn, so counting entries would make the recent zone depend on the format.
 * Zone borders therefore never fall inside an assistant turn. Linear.
 *
 * @param history - The history.
 * @param preserveRecentCount - Messages in the recent zone.
 * @returns The zones; the old zone is empty (`oldStart === oldEnd`) when the first and recent zones cover everything.
 * @example
 * ```ts
 * // human | ai ai | tool tool | ai | human
 * selectZones(history, 2); // { oldStart: 1, oldEnd: 6 }: first = [human], recent = [ai, human]
 * ```
 */
export function selectZones(history: readonly HistoryEntry[], preserveRecentCount: number): TruncationZones {
  const speakerAt = (index: number) => (history[index] as HistoryEntry).speaker;
  let oldStart = Math.min(1, history.length);
  while (oldStart < history.length && speakerAt(oldStart) === speakerAt(0)) oldStart++;
  let oldEnd = history.length;
  for (let messages = 0; messages < preserveRecentCount && oldEnd > oldStart; messages++) {
    const speaker = speakerAt(oldEnd - 1);
    while (oldEnd > oldStart && speakerAt(oldEnd - 1) === speaker) oldEnd--;
  }
  return { oldStart, oldEnd };
}
