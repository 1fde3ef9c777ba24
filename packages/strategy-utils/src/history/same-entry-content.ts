import type { HistoryEntry } from '@ctx/core';
import { isSameJsonText } from './same-json-text.js';

/**
 * Whether two entries hold the same content: the same keys in the same order, the same strings, numbers and
 * booleans, all the way down (parts that are the same object are not walked; a key whose value is `undefined` is
 * absent). A strategy that rebuilds an entry on every call can hand back the entry it built (and validated) last
 * time when the new one has the same content, so the orchestrator and the token counter find the object they
 * already know.
 *
 * @param first - An entry.
 * @param second - Another entry.
 * @returns True when serializing either gives the same JSON (key order included).
 * @example
 * ```ts
 * const entry = { speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] } as const;
 * isSameEntryContent(entry, { ...entry, blocks: [{ type: 'text', text: 'hi' }] }); // true
 * ```
 */
export function isSameEntryContent(first: HistoryEntry, second: HistoryEntry): boolean {
  return isSameJsonText(first, second);
}
