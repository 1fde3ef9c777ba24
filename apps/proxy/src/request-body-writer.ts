import { Buffer } from 'node:buffer';
import { isSameJsonText } from '@ctx/strategy-utils';

/**
 * Writes the bodies of one conversation's compressed requests as the bytes sent upstream. Each request repeats most of
 * the one before — the system prompt, the tool definitions, the messages of a compaction kept, with a turn appended —
 * and serializing all of it again, then encoding the text as UTF-8, was the largest part of the proxy's own work on a
 * compressed request. The writer keeps the bytes of each top-level field and of each message it wrote, and serializes
 * one again only when it differs from the one written in its place last time. Comparing serializes nothing: the
 * history's strings are the same objects from one request to the next, so most comparisons are pointer checks, and
 * the rest compare characters without escaping any.
 */
export interface RequestBodyWriter {
  /**
   * The body of `request`: exactly the UTF-8 bytes of `JSON.stringify(request)`.
   *
   * @param request - A request made of JSON values (plain objects, arrays, strings, finite numbers, booleans, null).
   * @returns The bytes to send.
   */
  write(request: Readonly<Record<string, unknown>>): Uint8Array;
  /**
   * Whether the last body written held, at `index` of its `messages`, a message with the same JSON text as `message`
   * (compared as {@link RequestBodyWriter.write} compares: mostly pointer checks). A `true` is remembered until the
   * next write, which then reuses the message's bytes without comparing again: the message must not change in between.
   *
   * @param message - A message of the request about to be written.
   * @param index - Its place in `messages`.
   */
  isWritten(message: unknown, index: number): boolean;
  /**
   * Whether the last write sent, at `index` of its `messages`, the bytes of the message the write before it sent
   * there: a message with the same JSON text as before.
   *
   * @param index - A place in the last body's `messages`.
   */
  wasKept(index: number): boolean;
}

/** A value written, and the UTF-8 bytes of its JSON text. */
interface Written {
  readonly value: unknown;
  readonly bytes: Buffer;
}

const comma = Buffer.from(',');
const openObject = Buffer.from('{');
const closeObject = Buffer.from('}');
const openArray = Buffer.from('[');
const closeArray = Buffer.from(']');

/** `value` written, reusing the bytes written for `before` when its JSON text is the same. */
function written(value: unknown, before: Written | undefined): Written {
  if (before !== undefined && isSameJsonText(value, before.value)) return { value, bytes: before.bytes };
  // In an array (the only place this writes one), what JSON leaves out of an object (undefined) is written as null.
  return { value, bytes: Buffer.from(JSON.stringify(value) ?? 'null', 'utf8') };
}

/**
 * Creates a {@link RequestBodyWriter} for one conversation. Between requests it holds the bytes of the last body it
 * wrote (outside the JavaScript heap, about the size of that body) and the values they were written from (the
 * encoded messages, whose strings are the conversation history's).
 *
 * @returns The writer.
 * @example
 * ```ts
 * const writer = createRequestBodyWriter();
 * const body = writer.write(encoded); // the bytes of JSON.stringify(encoded), what did not change not serialized again
 * ```
 */
export function createRequestBodyWriter(): RequestBodyWriter {
  let fields = new Map<string, Written>();
  let messages: readonly Written[] = [];
  // Messages `isWritten` found the same as the one written in their place, by index, until the next write.
  let confirmed = new Map<number, unknown>();
  // Whether each message of the last body reused the bytes of the one before it in its place.
  let kept: readonly boolean[] = [];

  return {
    isWritten(message, index) {
      if (confirmed.has(index) && confirmed.get(index) === message) return true;
      const before = messages[index];
      if (before === undefined || !isSameJsonText(message, before.value)) return false;
      confirmed.set(index, message);
      return true;
    },
    wasKept(index) {
      return kept[index] === true;
    },
    write(request) {
      const nextFields = new Map<string, Written>();
      let nextMessages: readonly Written[] = [];
      let nextKept: readonly boolean[] = [];
      const parts: Buffer[] = [openObject];
      // The top level as JSON.stringify writes it: own enumerable keys in order, those whose value is undefined left out.
      for (const key of Object.keys(request)) {
        const value = request[key];
        if (value === undefined) continue;
        if (parts.length > 1) parts.push(comma);
        parts.push(Buffer.from(`${JSON.stringify(key)}:`, 'utf8'));
        if (key === 'messages' && Array.isArray(value)) {
          const items: readonly unknown[] = value;
          nextMessages = items.map((message, index) => {
            const before = messages[index];
            if (before !== undefined && confirmed.has(index) && confirmed.get(index) === message) return { value: message, bytes: before.bytes };
            return written(message, before);
          });
          nextKept = nextMessages.map((message, index) => message.bytes === messages[index]?.bytes);
          parts.push(openArray);
          nextMessages.forEach((message, index) => {
            if (index > 0) parts.push(comma);
            parts.push(message.bytes);
          });
          parts.push(closeArray);
        } else {
          const field = written(value, fields.get(key));
          nextFields.set(key, field);
          parts.push(field.bytes);
        }
      }
      parts.push(closeObject);
      fields = nextFields;
      messages = nextMessages;
      kept = nextKept;
      confirmed = new Map();
      return Buffer.concat(parts);
    },
  };
}
