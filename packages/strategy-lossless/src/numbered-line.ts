/**
 * One line of tool output, split into the line-number prefix tools print and the content after it. Claude Code's
 * `Read` prints `     12→text`, `cat -n` and `nl -ba` print `    12\ttext`: the same file line gets a different
 * prefix when an edit above it shifts the numbering, so lines are compared by content and renumbered on the way back.
 */
export interface NumberedLine {
  /** The line without its number prefix (the whole line when it has none). */
  readonly content: string;
  /** The printed line number, when the line has a prefix. */
  readonly number?: number;
  /** Characters of the padded number (`     12` is 7): tools pad to a fixed width. */
  readonly width?: number;
  /** What follows the number: `→` (Claude Code) or a tab (`cat -n`, `nl`). */
  readonly separator?: string;
}

// No leading zeros: the prefix must be exactly `String(number).padStart(width)`, or it could not be rebuilt.
const prefix = /^( *)([1-9]\d*|0)(→|\t)/;

/**
 * Splits a line into its number prefix and content.
 *
 * @param line - One line of a tool result.
 * @returns `{ content }` for a line without a prefix; `{ content, number, width, separator }` otherwise.
 * @example
 * ```ts
 * parseNumberedLine('    12→  return x;'); // { content: '  return x;', number: 12, width: 6, separator: '→' }
 * ```
 */
export function parseNumberedLine(line: string): NumberedLine {
  const match = prefix.exec(line);
  if (match === null) return { content: line };
  const padding = match[1] as string;
  const digits = match[2] as string;
  return {
    content: line.slice(match[0].length),
    number: Number(digits),
    width: padding.length + digits.length,
    separator: match[3],
  };
}

/**
 * The line {@link parseNumberedLine} splits: the number padded to `width`, the separator, the content.
 *
 * @param number - The line number to print.
 * @param width - Characters of the padded number.
 * @param separator - `→` or a tab.
 * @param content - The line's content.
 * @returns The full line.
 * @example
 * ```ts
 * formatNumberedLine(12, 6, '→', '  return x;'); // '    12→  return x;'
 * ```
 */
export function formatNumberedLine(number: number, width: number, separator: string, content: string): string {
  return `${String(number).padStart(width)}${separator}${content}`;
}
