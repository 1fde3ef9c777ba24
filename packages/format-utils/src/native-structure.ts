/*
 * A decoder that reads the same conversation again and again (a proxy sees every request of a conversation whole)
 * can reuse what it decoded from messages it has seen, but only while they are exactly what it read: an input is the
 * caller's, who may change it after the call, so what is kept is a copy of its structure (plain objects and arrays
 * copied, strings and other primitives shared — they cannot change), compared with the next input property by
 * property. Stricter than JSON equality on purpose: a property set to `undefined`, which JSON leaves out, can still
 * change what a decoder reads, so it counts.
 */
import { setOwnField } from './set-own-field.js';

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * A copy of a native value's structure: plain objects (own enumerable properties, in order, `undefined` values
 * included) and arrays copied at every depth; strings, numbers and anything else kept as they are.
 *
 * @param value - A native value, e.g. a request message.
 * @returns The copy; no later change to `value`'s objects or arrays reaches it.
 *
 * @example
 * ```ts
 * const seen = copyNativeStructure(request.messages[0]);
 * isSameNativeStructure(request.messages[0], seen); // true until the caller changes the message
 * ```
 */
export function copyNativeStructure<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyNativeStructure) as T;
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwnField(copy, key, copyNativeStructure((value as Record<string, unknown>)[key]));
  return copy as T;
}

/**
 * Whether `value` is what {@link copyNativeStructure} copied: arrays of the same length with the same items, plain
 * objects with the same own enumerable properties in the same order (one set to `undefined` included), the same
 * primitives (`NaN` equal to itself); any other object only when it is the very same object. Stops at the first
 * difference; strings that are the same object compare at once.
 *
 * @param value - A native value, e.g. a message of the next request.
 * @param copy - A copy made by {@link copyNativeStructure}.
 * @returns True when a decoder would read the two alike.
 */
export function isSameNativeStructure(value: unknown, copy: unknown): boolean {
  if (value === copy) return true;
  if (typeof value !== 'object' || value === null || typeof copy !== 'object' || copy === null) {
    return typeof value === 'number' && typeof copy === 'number' && Number.isNaN(value) && Number.isNaN(copy);
  }
  if (Array.isArray(value)) {
    if (!Array.isArray(copy) || copy.length !== value.length) return false;
    for (let index = 0; index < value.length; index++) if (!isSameNativeStructure(value[index], copy[index])) return false;
    return true;
  }
  if (Array.isArray(copy) || !isPlainObject(value) || !isPlainObject(copy)) return false;
  const keys = Object.keys(copy);
  let position = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (keys[position] !== key || !isSameNativeStructure((value as Record<string, unknown>)[key], (copy as Record<string, unknown>)[key])) return false;
    position++;
  }
  return position === keys.length;
}

/**
 * How many of a request's first messages are still those a decoder kept copies of: the `messages` array of `input`
 * (when it is an object that has one) compared with `copies` one by one ({@link isSameNativeStructure}), up to the
 * first that differs.
 *
 * @param input - A request, as the caller gave it (not validated).
 * @param copies - Copies of the messages read before, in order.
 * @returns The request's messages (undefined when it has no message array) and how many of them are unchanged.
 */
export function countUnchangedMessages(input: unknown, copies: readonly unknown[]): { readonly messages: readonly unknown[] | undefined; readonly count: number } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { messages: undefined, count: 0 };
  const { messages } = input as { readonly messages?: unknown };
  if (!Array.isArray(messages)) return { messages: undefined, count: 0 };
  let count = 0;
  while (count < copies.length && count < messages.length && isSameNativeStructure(messages[count], copies[count])) count++;
  return { messages, count };
}

/**
 * Parses the part of a request a decoder has not read yet: `input` with only its messages from `from` on (the whole
 * request when `from` is 0). When that part is invalid, the whole request is parsed to throw its error instead, so a
 * problem is named by its path in the request the caller gave (`messages[7].content`, not `messages[1].content`).
 *
 * @param input - The request, as the caller gave it (an object with a message array when `from` > 0).
 * @param from - How many leading messages are unchanged and not read again ({@link countUnchangedMessages}).
 * @param parse - Validates a request and returns it typed; throws on invalid input.
 * @returns What `parse` returns for the request's messages from `from` on (and its other fields).
 * @throws What `parse` throws for the whole request.
 */
export function parseMessagesFrom<Request>(input: unknown, from: number, parse: (input: unknown) => Request): Request {
  if (from === 0) return parse(input);
  const { messages } = input as { readonly messages: readonly unknown[] };
  try {
    return parse({ ...(input as object), messages: messages.slice(from) });
  } catch (error) {
    parse(input);
    throw error;
  }
}
