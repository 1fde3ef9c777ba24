/**
 * Characters a terminal would act on rather than show: C0 and C1 controls (escape sequences, bell, carriage return),
 * DEL, line and paragraph separators, and the bidirectional overrides that reorder what follows them.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are what we escape.
const unsafeCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Makes text safe to print as one terminal line: every control or reordering character becomes a visible escape
 * (`\x1b`, `\n`, `\u202e`), so raw bytes from a broken file never reach the terminal.
 *
 * @example escapeForTerminal('\u001b[2J') // '\\x1b[2J'
 */
export function escapeForTerminal(text: string): string {
  return text.replace(unsafeCharacters, (character) => {
    if (character === '\n') return '\\n';
    if (character === '\r') return '\\r';
    if (character === '\t') return '\\t';
    const code = character.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
