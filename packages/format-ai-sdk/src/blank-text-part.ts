/**
 * Whether an AI SDK message part is a text part holding only white space: Anthropic rejects such a part, so encode
 * drops those that came from other formats, and decode marks a prompt's own so they come back on a round trip.
 *
 * @param part - Any message part.
 * @returns True for `{ type: 'text', text }` with `text.trim() === ''`.
 */
export function isBlankTextPart(part: { readonly type: string; readonly text?: unknown }): boolean {
  return part.type === 'text' && typeof part.text === 'string' && part.text.trim() === '';
}
