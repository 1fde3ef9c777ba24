import { parseHistoryEntry, type HistoryEntry } from '@ctx/core';

/**
 * The entry a strategy built, validated and deep-frozen by `@ctx/core`'s history parser (kept parts are reused, not
 * copied): returned from `compress()`, it is the very object the orchestrator keeps (it validates what it has not
 * validated before), so its token count is cached once, and a strategy that keeps it between calls hands back an
 * object everything downstream already knows. An invalid entry comes back as it is, for the orchestrator's own check
 * to report with the strategy's name.
 *
 * @param entry - An entry a strategy built.
 * @returns The validated entry, or `entry` itself when it is not valid.
 * @example
 * ```ts
 * const shortened = toValidatedEntry({ ...entry, blocks: [{ type: 'text', text: 'short' }] });
 * isValidatedEntry(shortened); // true
 * ```
 */
export function toValidatedEntry(entry: HistoryEntry): HistoryEntry {
  try {
    return parseHistoryEntry(entry);
  } catch {
    return entry;
  }
}
