import { cutTextHead } from '@ctx/strategy-utils';
import { truncationMarker, isAlreadyShortened } from './content-markers.js';

/** The limits of the `truncate` operation for one piece of text (FR-SM-002 `params.truncate`). */
export interface TruncationLimits {
  /** Characters kept. */
  readonly maxChars: number;
  /** Lines kept; no line limit when undefined. */
  readonly maxLines?: number;
  /** Append the `⟨ ... truncated N lines ⟩` marker (without it the text is cut silently). */
  readonly addEllipsis: boolean;
}

/**
 * Whether `text` is over its truncation limits and not already this strategy's output: the pieces the `truncate`
 * and `summarize` operations work on.
 *
 * @param text - The content.
 * @param limits - The limits.
 * @returns True when `truncateText` would cut it.
 */
export function isOverLimits(text: string, limits: TruncationLimits): boolean {
  return !isAlreadyShortened(text) && cutTextHead(text, limits) !== undefined;
}

/**
 * Keeps the beginning of `text` — whole lines while the line limit binds, characters when a long line does — and
 * appends a marker saying how much was cut. Idempotent: text within its limits or already shortened comes back as
 * it is (the same string).
 *
 * @param text - The content.
 * @param limits - The limits.
 * @returns The truncated text, or `text` itself when nothing is cut.
 * @example
 * ```ts
 * truncateText('a\nb\nc', { maxChars: 100, maxLines: 1, addEllipsis: true }); // 'a\n⟨ ... truncated 2 lines ⟩'
 * ```
 */
export function truncateText(text: string, limits: TruncationLimits): string {
  if (isAlreadyShortened(text)) return text;
  const cut = cutTextHead(text, limits);
  if (cut === undefined) return text;
  if (limits.addEllipsis) return `${cut.head}\n${truncationMarker(cut.removed, cut.unit)}`;
  // Without a marker an empty head of a character cut would leave blank content behind.
  return cut.unit === 'characters' && cut.head === '' ? text : cut.head;
}
