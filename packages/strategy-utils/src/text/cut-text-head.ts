/** How much of a text to keep: characters, and optionally lines. */
export interface TextHeadLimits {
  /** Characters kept. */
  readonly maxChars: number;
  /** Lines kept; no line limit when undefined. */
  readonly maxLines?: number | undefined;
}

/** The beginning of a text that was over its limits, and how much was cut after it. */
export interface TextHead {
  /** What is kept: whole lines while the line limit binds, else the first `maxChars` characters. */
  readonly head: string;
  /** How many lines or characters were cut. */
  readonly removed: number;
  readonly unit: 'lines' | 'characters';
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

/** Lines from `from` to the end; a final line break ends the last line, it does not start another. */
function countLinesFrom(text: string, from: number): number {
  let lines = 0;
  let position = from - 1;
  while ((position = text.indexOf('\n', position + 1)) !== -1) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

/**
 * Where a text over its limits is cut: with more than `maxLines` lines, after line `maxLines` (when that fits in
 * `maxChars`), else after `maxChars` characters, never between the two halves of a surrogate pair. The truncating
 * strategies add their own marker after the head. Linear in the text's length; reads only the beginning unless it
 * must count the lines it cuts.
 *
 * @param text - The content.
 * @param limits - Characters and lines kept.
 * @returns The head and what was cut, or undefined when the text is within its limits.
 * @example
 * ```ts
 * cutTextHead('a\nb\nc', { maxChars: 100, maxLines: 1 }); // { head: 'a', removed: 2, unit: 'lines' }
 * ```
 */
export function cutTextHead(text: string, limits: TextHeadLimits): TextHead | undefined {
  const lineEnd = limits.maxLines === undefined ? -1 : endOfLine(text, limits.maxLines);
  // A text whose only further "line" is the empty one after a final line break is within the line limit.
  const overLines = lineEnd !== -1 && lineEnd < text.length - 1;
  if (!overLines && text.length <= limits.maxChars) return undefined;
  if (overLines && lineEnd <= limits.maxChars) {
    return { head: text.slice(0, lineEnd), removed: countLinesFrom(text, lineEnd + 1), unit: 'lines' };
  }
  let cut = limits.maxChars;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return { head: text.slice(0, cut), removed: text.length - cut, unit: 'characters' };
}
