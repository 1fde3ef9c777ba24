/**
 * `text.trimStart().length` without making the trimmed copy: ASCII white space is skipped here; where the first
 * other character is not ASCII, `trimStart` (which knows every Unicode space) decides.
 *
 * @param text - A line.
 * @returns Its length without the white space it starts with.
 * @example
 * ```ts
 * trimmedStartLength('\t  return x;'); // 9
 * ```
 */
export function trimmedStartLength(text: string): number {
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    // Space, and tab through carriage return.
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) index++;
    else if (code < 0x80) break;
    else return text.trimStart().length;
  }
  return text.length - index;
}
