import { parseHistoryEntry, type HistoryEntry } from '@ctx/core';

/**
 * Frozen entries already checked. The answer never changes: the parser marks only the copies it makes itself, so a
 * frozen entry it did not make is never validated later, and one it made stays validated.
 */
const checked = new WeakMap<HistoryEntry, boolean>();

/**
 * Whether `entry` is an entry `@ctx/core`'s history parser validated and deep-froze (what the history service, the
 * orchestrator and `parseHistory` hand strategies): such an entry and everything in it cannot change, so work
 * derived from it can be kept in a `WeakMap` keyed by the entry (or its blocks) and reused on the next call.
 * Any other object — a caller's raw entry, even a frozen one whose nested objects could still be mutated — is not.
 *
 * Costs a lookup; the first time a frozen entry is seen, the parser's check (it returns an entry it validated before
 * as-is, anything else as a new copy, or throws for invalid input).
 *
 * @param entry - A history entry.
 * @returns True when caching by the entry's identity is safe.
 * @example
 * ```ts
 * const [entry] = parseHistory([{ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] }]);
 * isValidatedEntry(entry); // true
 * isValidatedEntry({ speaker: 'human', blocks: [] }); // false
 * ```
 */
export function isValidatedEntry(entry: HistoryEntry): boolean {
  const known = checked.get(entry);
  if (known !== undefined) return known;
  if (!Object.isFrozen(entry)) return false;
  let validated: boolean;
  try {
    validated = parseHistoryEntry(entry) === entry;
  } catch {
    validated = false;
  }
  checked.set(entry, validated);
  return validated;
}
