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

const space = 0x20;
const tab = 0x09;
const arrow = 0x2192;
const zero = 0x30;
const nine = 0x39;

const isDigit = (code: number): boolean => code >= zero && code <= nine;

/**
 * Splits a line into its number prefix and content. The prefix is spaces, a number without leading zeros (the prefix
 * must be exactly `String(number).padStart(width)`, or it could not be rebuilt) and `→` or a tab: what
 * `/^( *)([1-9]\d*|0)(→|\t)/` matches, read without a regular expression (which allocated a match for every line
 * the planner indexes).
 *
 * @param line - One line of a tool result.
 * @returns `{ content }` for a line without a prefix; `{ content, number, width, separator }` otherwise.
 * @example
 * ```ts
 * parseNumberedLine('    12→  return x;'); // { content: '  return x;', number: 12, width: 6, separator: '→' }
 * ```
 */
export function parseNumberedLine(line: string): NumberedLine {
  let end = 0;
  while (line.charCodeAt(end) === space) end++;
  const digitsStart = end;
  const first = line.charCodeAt(end);
  if (!isDigit(first)) return { content: line };
  end++;
  let number = first - zero;
  if (number !== 0) {
    for (let code = line.charCodeAt(end); isDigit(code); code = line.charCodeAt(++end)) number = number * 10 + (code - zero);
  }
  const separator = line.charCodeAt(end);
  if (separator !== arrow && separator !== tab) return { content: line };
  return {
    content: line.slice(end + 1),
    // Summed digit by digit, the number is exact up to 15 digits; a longer one is read as `Number` reads it.
    number: end - digitsStart <= 15 ? number : Number(line.slice(digitsStart, end)),
    // The padding and the digits: everything before the separator.
    width: end,
    separator: separator === arrow ? '→' : '\t',
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
