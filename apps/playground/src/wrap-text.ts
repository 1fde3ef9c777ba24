/** The width text is wrapped to when stdout is not a terminal. */
export const DEFAULT_COLUMNS = 80;

/** Narrower terminals still get this many columns: below it, wrapping makes text harder to read, not easier. */
const MINIMUM_COLUMNS = 40;

/** The width to wrap to: the terminal's, else {@link DEFAULT_COLUMNS}; never below 40. */
export function outputColumns(columns: number | undefined): number {
  return Math.max(MINIMUM_COLUMNS, columns !== undefined && Number.isInteger(columns) && columns > 0 ? columns : DEFAULT_COLUMNS);
}

/**
 * Wraps text into lines of at most `width` characters (indent included), breaking at spaces; a word longer than a
 * line (a long JSON value, a path) is cut across lines so that nothing runs past the edge.
 *
 * @param text - One paragraph; runs of spaces collapse.
 * @param options - `width`: the line length; `indent`: put before every line (default none).
 * @returns The lines, without newlines.
 *
 * @example wrapText('one two three', { width: 8 }) // ['one two', 'three']
 */
export function wrapText(text: string, options: { readonly width: number; readonly indent?: string }): string[] {
  const indent = options.indent ?? '';
  const room = Math.max(1, options.width - indent.length);
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (current === '' && word.length <= room) current = word;
    else if (current !== '' && current.length + 1 + word.length <= room) current = `${current} ${word}`;
    else {
      if (current !== '') lines.push(current);
      let rest = word;
      while (rest.length > room) {
        lines.push(rest.slice(0, room));
        rest = rest.slice(room);
      }
      current = rest;
    }
  }
  if (current !== '') lines.push(current);
  return lines.map((line) => `${indent}${line}`);
}
