/**
 * What is wrong with a file whose content holds no conversation at all — nothing, only whitespace, `[]` or `{}` —
 * as "expected …, found …"; undefined for anything else. Such a file has no format to detect, so every command
 * refuses it rather than reading it as an empty (and therefore "valid") conversation.
 *
 * @param text - The file's content.
 * @param byteLength - Its size in bytes, for the message.
 */
export function describeDegenerateContent(text: string, byteLength: number): string | undefined {
  const expected = 'expected a conversation with at least one message';
  if (byteLength === 0) return `${expected}, found an empty file (0 bytes)`;
  const trimmed = text.trim();
  if (trimmed === '') return `${expected}, found only whitespace (${byteLength} bytes)`;
  // Whitespace inside the brackets is still nothing: `[ ]`, `{\n}`.
  const compact = trimmed.replace(/\s+/g, '');
  if (compact === '[]') return `${expected}, found an empty array \`[]\``;
  if (compact === '{}') return `${expected}, found an empty object \`{}\``;
  return undefined;
}
