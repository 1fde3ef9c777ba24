import { formatCount } from '@ctx/core';

/** What replaces suppressed content (spec 004 FR-TR-002, FR-SM-002 `suppress`). */
export const SUPPRESSED_CONTENT_MARKER = '⟨ Content suppressed ⟩';

/** The first line of content a summarizer rewrote (FR-SM-002 `summarize`), so no later pass summarizes it again. */
export const SUMMARIZED_CONTENT_PREFIX = '⟨ Summarized ⟩';

/**
 * The marker appended, on a line of its own, to the kept beginning of truncated content.
 *
 * @param omitted - How many lines or characters were cut.
 * @param unit - What `omitted` counts.
 * @returns The marker, e.g. `⟨ ... truncated 35 lines ⟩` (singular for one).
 * @example
 * ```ts
 * truncationMarker(4912, 'characters'); // '⟨ ... truncated 4,912 characters ⟩'
 * ```
 */
export function truncationMarker(omitted: number, unit: 'lines' | 'characters'): string {
  return `⟨ ... truncated ${formatCount(omitted)} ${omitted === 1 ? unit.slice(0, -1) : unit} ⟩`;
}

const truncatedEnding = /⟨ \.\.\. truncated [\d,]+ (?:lines?|characters?) ⟩$/;

/**
 * Whether `text` is already this strategy's output — suppressed, truncated (ends with the truncation marker) or
 * summarized — so that running a pass again changes nothing (idempotence, needed by `optimize()`).
 *
 * @param text - Any text.
 * @returns True for the strategy's own output.
 */
export function isAlreadyShortened(text: string): boolean {
  return (
    text === SUPPRESSED_CONTENT_MARKER ||
    text.startsWith(SUMMARIZED_CONTENT_PREFIX) ||
    (text.endsWith('⟩') && truncatedEnding.test(text))
  );
}
