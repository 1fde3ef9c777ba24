/**
 * A 64-bit content hash of `text`, as 16 lowercase hex digits: two 32-bit multiplicative lanes over the UTF-16 code
 * units, mixed at the end (the cyrb53 construction, widened to 64 bits). Synchronous and browser-safe, which Web
 * Crypto is not; it guards against references resolving to the wrong content (a moved or edited source), not
 * against an adversary forging a collision.
 *
 * @param text - The content.
 * @returns 16 hex digits; the same text always gives the same hash.
 * @example
 * ```ts
 * hashContent('def main():'); // '…16 hex digits…'
 * ```
 */
export function hashContent(text: string): string {
  let first = 0xdeadbeef;
  let second = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 2654435761);
    second = Math.imul(second ^ code, 1597334677);
  }
  first = Math.imul(first ^ (first >>> 16), 2246822507) ^ Math.imul(second ^ (second >>> 13), 3266489909);
  second = Math.imul(second ^ (second >>> 16), 2246822507) ^ Math.imul(first ^ (first >>> 13), 3266489909);
  return (second >>> 0).toString(16).padStart(8, '0') + (first >>> 0).toString(16).padStart(8, '0');
}

/** Hex digits of a hash shown in a reference marker: enough for a reader to match a marker to its record. */
export const SHORT_HASH_LENGTH = 6;
