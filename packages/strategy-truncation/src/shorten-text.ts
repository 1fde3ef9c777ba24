import { cutTextHead } from '@ctx/strategy-utils';
import { SUPPRESSED_CONTENT_MARKER, isAlreadyShortened, truncationMarker } from './truncation-markers.js';

/** How to shorten one piece of text that is over its limits. */
export interface TextLimits {
  readonly mode: 'suppress' | 'truncate';
  /** Characters kept. */
  readonly maxChars: number;
  /** Lines kept; no line limit when undefined. */
  readonly maxLines?: number;
}

/** The shortened text and what was done, or undefined when the text is left as it is. */
export interface ShortenedText {
  readonly text: string;
  readonly operation: 'suppressed' | 'truncated';
}

/**
 * Shortens `text` when it has more than `maxLines` lines or more than `maxChars` characters: `truncate` keeps the
 * beginning (whole lines while the line limit binds, characters when one long line does) and appends a marker saying
 * how much was cut; `suppress` replaces the whole text with `⟨ Content suppressed ⟩`. Text within its limits, text
 * this strategy already shortened, and text the marker would not make shorter are left alone.
 *
 * Linear in the text's length, and it reads only the beginning unless it must count the lines it cuts.
 *
 * @param text - The content.
 * @param limits - The mode and limits.
 * @returns The new text and the operation, or undefined when nothing changes.
 * @example
 * ```ts
 * const output = Array.from({ length: 40 }, (_, index) => `line ${index + 1}`).join('\n');
 * shortenText(output, { mode: 'truncate', maxLines: 2, maxChars: 1000 });
 * // { text: 'line 1\nline 2\n⟨ … 38 more lines truncated ⟩', operation: 'truncated' }
 * ```
 */
export function shortenText(text: string, limits: TextLimits): ShortenedText | undefined {
  const cut = cutTextHead(text, limits);
  if (cut === undefined || isAlreadyShortened(text)) return undefined;
  const shortened = limits.mode === 'suppress' ? SUPPRESSED_CONTENT_MARKER : `${cut.head}\n${truncationMarker(cut.removed, cut.unit)}`;
  return shortened.length < text.length ? { text: shortened, operation: limits.mode === 'suppress' ? 'suppressed' : 'truncated' } : undefined;
}
