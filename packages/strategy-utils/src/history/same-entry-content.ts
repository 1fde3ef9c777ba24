import type { HistoryEntry } from '@ctx/core';

function sameValue(first: unknown, second: unknown): boolean {
  if (first === second) return true;
  if (typeof first !== 'object' || typeof second !== 'object' || first === null || second === null) return false;
  if (Array.isArray(first) !== Array.isArray(second)) return false;
  const firstKeys = Object.keys(first);
  const secondKeys = Object.keys(second);
  if (firstKeys.length !== secondKeys.length) return false;
  for (let index = 0; index < firstKeys.length; index++) {
    const key = firstKeys[index] as string;
    if (key !== secondKeys[index]) return false;
    if (!sameValue((first as Record<string, unknown>)[key], (second as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * Whether two entries hold the same content: the same keys in the same order, the same strings, numbers and
 * booleans, all the way down (parts that are the same object are not walked). A strategy that rebuilds an entry on
 * every call can hand back the entry it built (and validated) last time when the new one has the same content, so
 * the orchestrator and the token counter find the object they already know.
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
  return sameValue(first, second);
}
