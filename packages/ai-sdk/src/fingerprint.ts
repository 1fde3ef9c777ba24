/**
 * A short, stable fingerprint of a JSON value (two 32-bit FNV-1a hashes of its JSON text and the text's length):
 * enough to tell whether a conversation's earlier entries are the ones seen before, without keeping their text.
 */
export function fingerprint(value: unknown): string {
  const text = JSON.stringify(value) ?? '';
  let first = 0x811c9dc5;
  let second = 0x01000193 ^ text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995);
  }
  return `${(first >>> 0).toString(36)}.${(second >>> 0).toString(36)}.${text.length.toString(36)}`;
}
