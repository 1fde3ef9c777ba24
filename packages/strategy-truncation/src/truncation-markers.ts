import { formatCount } from '@ctx/core';

/** What replaces suppressed content (spec 004 FR-TR-002). */
export const SUPPRESSED_CONTENT_MARKER = '⟨ Content suppressed ⟩';

/**
 * The marker appended, on a line of its own, to the kept beginning of truncated content.
 *
 * @param omitted - How many lines or characters were cut.
 * @param unit - What `omitted` counts.
 * @returns The marker, e.g. `⟨ … 35 more lines truncated ⟩` (singular for one).
 * @example
 * ```ts
 * truncationMarker(4912, 'characters'); // '⟨ … 4,912 more characters truncated ⟩'
 * ```
 */
export function truncationMarker(omitted: number, unit: 'lines' | 'characters'): string {
  const unitName = omitted === 1 ? unit.slice(0, -1) : unit;
  return `⟨ … ${formatCount(omitted)} more ${unitName} truncated ⟩`;
}

const truncatedEnding = /⟨ … [\d,]+ more (?:lines?|characters?) truncated ⟩$/;

/**
 * Whether `text` is already this strategy's output: a suppression marker, or a kept beginning followed by a
 * truncation marker. Such text is never processed again, so compressing a compressed history changes nothing.
 *
 * @param text - Any text.
 * @returns True for the strategy's own output.
 * @example
 * ```ts
 * isAlreadyShortened('line 1\n⟨ … 3 more lines truncated ⟩'); // true
 * ```
 */
export function isAlreadyShortened(text: string): boolean {
  return text === SUPPRESSED_CONTENT_MARKER || (text.endsWith('truncated ⟩') && truncatedEnding.test(text));
}
