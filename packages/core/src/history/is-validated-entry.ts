import type { HistoryEntry } from './history-entry.js';
import { isValidated } from './validated-objects.js';

/**
 * Whether `value` is an entry ctx's history parser validated and deep-froze (what the history service, the
 * orchestrator, `parseHistory` and the codecs' `decode` hand out): such an entry and everything in it cannot change,
 * so work derived from it can be kept in a `WeakMap` keyed by the entry (or its blocks) and reused on the next call.
 * Any other object — a caller's raw entry, even a frozen one (ctx never checked it, and what it holds may still change)
 * — is not. Costs one private-field check.
 *
 * @param value - Anything.
 * @returns True when caching by the entry's identity is safe.
 * @example
 * ```ts
 * const [entry] = parseHistory([{ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] }]);
 * isValidatedEntry(entry); // true
 * isValidatedEntry({ speaker: 'human', blocks: [] }); // false
 * ```
 */
export function isValidatedEntry(value: unknown): value is HistoryEntry {
  return isValidated(value, 'entry');
}
