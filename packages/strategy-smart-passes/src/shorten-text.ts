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

/** Index of the `\n` ending line `lines`, or -1 when the text has no more than `lines` lines. */
function endOfLine(text: string, lines: number): number {
  let position = -1;
  for (let line = 0; line < lines; line++) {
    position = text.indexOf('\n', position + 1);
    if (position === -1) return -1;
  }
  return position;
}

function linesFrom(text: string, from: number): number {
  let lines = 0;
  let position = from - 1;
  while ((position = text.indexOf('\n', position + 1)) !== -1) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
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
  if (isAlreadyShortened(text)) return false;
  const lineEnd = limits.maxLines === undefined ? -1 : endOfLine(text, limits.maxLines);
  return (lineEnd !== -1 && lineEnd < text.length - 1) || text.length > limits.maxChars;
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
  if (!isOverLimits(text, limits)) return text;
  const lineEnd = limits.maxLines === undefined ? -1 : endOfLine(text, limits.maxLines);
  if (lineEnd !== -1 && lineEnd < text.length - 1 && lineEnd <= limits.maxChars) {
    const head = text.slice(0, lineEnd);
    return limits.addEllipsis ? `${head}\n${truncationMarker(linesFrom(text, lineEnd + 1), 'lines')}` : head;
  }
  // Cut by characters, never between the two halves of a surrogate pair.
  let cut = limits.maxChars;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  const head = text.slice(0, cut);
  if (limits.addEllipsis) return `${head}\n${truncationMarker(text.length - cut, 'characters')}`;
  // Without a marker an empty head would leave blank content behind.
  return head === '' ? text : head;
}
