import type { JsonValue } from '@ctx/core';

// The two lanes' seeds and multipliers. Every hash below feeds code units through the same steps, so each equals
// `hashContent` of the text it stands for.
const firstSeed = 0xdeadbeef;
const secondSeed = 0x41c6ce57;
const firstMultiplier = 2654435761;
const secondMultiplier = 1597334677;
const newline = 0x0a;
const quote = 0x22;
const backslash = 0x5c;

/** The lanes mixed at the end, as 16 hex digits. */
function digest(first: number, second: number): string {
  const mixedFirst = Math.imul(first ^ (first >>> 16), 2246822507) ^ Math.imul(second ^ (second >>> 13), 3266489909);
  const mixedSecond = Math.imul(second ^ (second >>> 16), 2246822507) ^ Math.imul(mixedFirst ^ (mixedFirst >>> 13), 3266489909);
  return (mixedSecond >>> 0).toString(16).padStart(8, '0') + (mixedFirst >>> 0).toString(16).padStart(8, '0');
}

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
  let first = firstSeed;
  let second = secondSeed;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, firstMultiplier);
    second = Math.imul(second ^ code, secondMultiplier);
  }
  return digest(first, second);
}

/**
 * `hashContent(lines.slice(start, start + count).join('\n'))`, without building the joined text.
 *
 * @param lines - Lines of a text.
 * @param start - The first line hashed.
 * @param count - How many lines are hashed.
 * @returns 16 hex digits, the hash of those lines joined by line breaks.
 * @example
 * ```ts
 * hashLines(['a', 'b', 'c'], 1, 2) === hashContent('b\nc'); // true
 * ```
 */
export function hashLines(lines: readonly string[], start: number, count: number): string {
  let first = firstSeed;
  let second = secondSeed;
  const end = Math.min(start + count, lines.length);
  for (let line = start; line < end; line++) {
    if (line > start) {
      first = Math.imul(first ^ newline, firstMultiplier);
      second = Math.imul(second ^ newline, secondMultiplier);
    }
    const text = lines[line] as string;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      first = Math.imul(first ^ code, firstMultiplier);
      second = Math.imul(second ^ code, secondMultiplier);
    }
  }
  return digest(first, second);
}

/** How `JSON.stringify` writes a code unit below 0x20, a quote or a backslash. */
function escapeOf(code: number): string {
  switch (code) {
    case 0x08:
      return '\\b';
    case 0x09:
      return '\\t';
    case 0x0a:
      return '\\n';
    case 0x0c:
      return '\\f';
    case 0x0d:
      return '\\r';
    case quote:
      return '\\"';
    case backslash:
      return '\\\\';
    default:
      // Control characters, and lone surrogates (always four hex digits), in lowercase hex.
      return `\\u${code.toString(16).padStart(4, '0')}`;
  }
}

/**
 * `hashContent(JSON.stringify(value))`: a string is hashed as `JSON.stringify` writes it (quoted, escaped) without
 * building that copy — a tool result can be megabytes.
 *
 * @param value - A JSON value.
 * @returns 16 hex digits, the hash of the value's JSON text.
 * @example
 * ```ts
 * hashJson('say "hi"\n') === hashContent(JSON.stringify('say "hi"\n')); // true
 * ```
 */
export function hashJson(value: JsonValue): string {
  if (typeof value !== 'string') return hashContent(JSON.stringify(value));
  let first = Math.imul(firstSeed ^ quote, firstMultiplier);
  let second = Math.imul(secondSeed ^ quote, secondMultiplier);
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code >= 0x20 && code !== quote && code !== backslash && (code < 0xd800 || code > 0xdfff)) {
      first = Math.imul(first ^ code, firstMultiplier);
      second = Math.imul(second ^ code, secondMultiplier);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      // A surrogate pair is written as it is.
      if (next >= 0xdc00 && next <= 0xdfff) {
        first = Math.imul(Math.imul(first ^ code, firstMultiplier) ^ next, firstMultiplier);
        second = Math.imul(Math.imul(second ^ code, secondMultiplier) ^ next, secondMultiplier);
        index++;
        continue;
      }
    }
    const escape = escapeOf(code);
    for (let position = 0; position < escape.length; position++) {
      const unit = escape.charCodeAt(position);
      first = Math.imul(first ^ unit, firstMultiplier);
      second = Math.imul(second ^ unit, secondMultiplier);
    }
  }
  first = Math.imul(first ^ quote, firstMultiplier);
  second = Math.imul(second ^ quote, secondMultiplier);
  return digest(first, second);
}

/** Hex digits of a hash shown in a reference marker: enough for a reader to match a marker to its record. */
export const SHORT_HASH_LENGTH = 6;
