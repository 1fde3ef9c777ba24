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

/** Index just past the end of line `lines` (the position of its `\n`), or -1 when the text has no more lines. */
function endOfLine(text: string, lines: number): number {
  let position = -1;
  for (let line = 0; line < lines; line++) {
    position = text.indexOf('\n', position + 1);
    if (position === -1) return -1;
  }
  return position;
}

function countLines(text: string, from: number): number {
  let lines = 0;
  let position = from - 1;
  while ((position = text.indexOf('\n', position + 1)) !== -1) lines++;
  // A final line break ends the last line; it does not start another.
  return text.endsWith('\n') ? lines : lines + 1;
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
  const lineEnd = limits.maxLines === undefined ? -1 : endOfLine(text, limits.maxLines);
  // A text whose only further "line" is the empty one after a final line break is within the line limit.
  const overLines = lineEnd !== -1 && lineEnd < text.length - 1;
  if (!overLines && text.length <= limits.maxChars) return undefined;
  if (isAlreadyShortened(text)) return undefined;

  let shortened: string;
  if (limits.mode === 'suppress') {
    shortened = SUPPRESSED_CONTENT_MARKER;
  } else if (overLines && lineEnd <= limits.maxChars) {
    shortened = `${text.slice(0, lineEnd)}\n${truncationMarker(countLines(text, lineEnd + 1), 'lines')}`;
  } else {
    // Cut by characters, never between the two halves of a surrogate pair.
    let cut = limits.maxChars;
    const code = text.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    shortened = `${text.slice(0, cut)}\n${truncationMarker(text.length - cut, 'characters')}`;
  }
  return shortened.length < text.length ? { text: shortened, operation: limits.mode === 'suppress' ? 'suppressed' : 'truncated' } : undefined;
}
