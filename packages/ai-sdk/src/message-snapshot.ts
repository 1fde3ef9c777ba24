/*
 * A conversation state remembers the prompt messages it has seen, to tell on the next call whether they are still
 * the conversation's past. That comparison was most of a call's work outside the strategies (each entry serialized
 * and hashed on every call), so it now walks the structure and stops at the first difference: strings are compared
 * as values — the same string object, which an app that keeps its messages passes again, is equal at once, and an
 * equal copy is compared by the engine's own string comparison — never hashed or serialized. What is remembered is a
 * copy of the messages' structure (objects, arrays and binary data copied; strings shared, they cannot change), so
 * an app that edits a message object in place after the call is still seen to have changed it.
 */

/** The bytes of a `Uint8Array` or an `ArrayBuffer`, copied. */
class BytesSnapshot {
  constructor(
    readonly kind: 'uint8array' | 'arraybuffer',
    readonly bytes: Uint8Array,
  ) {}
}

/** A `URL`, by its address. */
class UrlSnapshot {
  constructor(readonly href: string) {}
}

/** An object: its properties whose value is defined, in order. */
class RecordSnapshot {
  constructor(
    readonly keys: readonly string[],
    readonly values: readonly Snapshot[],
  ) {}
}

/** What {@link snapshotValue} records: a value no later change to the original reaches. */
export type Snapshot = string | number | boolean | bigint | symbol | null | undefined | readonly Snapshot[] | BytesSnapshot | UrlSnapshot | RecordSnapshot;

/**
 * A copy of `value` that no later change to `value` reaches: arrays and objects copied level by level (an object's
 * own enumerable properties whose value is not `undefined`, which a prompt treats as absent), the contents of
 * `Uint8Array`s and `ArrayBuffer`s copied, a `URL` kept as its address; strings and other primitives kept as they are.
 *
 * @param value - A value of a prompt.
 * @returns The snapshot to compare later prompts with ({@link isSameValue}).
 */
export function snapshotValue(value: unknown): Snapshot {
  if (typeof value !== 'object' || value === null) return value as Snapshot;
  if (Array.isArray(value)) return value.map(snapshotValue);
  // A copy of the bytes (a Node `Buffer`'s own `slice` would share them).
  if (value instanceof Uint8Array) return new BytesSnapshot('uint8array', new Uint8Array(value));
  if (value instanceof ArrayBuffer) return new BytesSnapshot('arraybuffer', new Uint8Array(value.slice(0)));
  if (value instanceof URL) return new UrlSnapshot(value.href);
  const keys: string[] = [];
  const values: Snapshot[] = [];
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    keys.push(key);
    values.push(snapshotValue(item));
  }
  return new RecordSnapshot(keys, values);
}

function sameBytes(first: Uint8Array, second: Uint8Array): boolean {
  if (first.length !== second.length) return false;
  for (let index = 0; index < first.length; index++) if (first[index] !== second[index]) return false;
  return true;
}

/**
 * Whether `value` is what `snapshot` recorded: the same primitives (`NaN` equal to itself), arrays of the same length
 * with the same items, objects with the same defined properties in the same order, the same bytes, the same address.
 * Any difference — one character, a property added or moved — makes them differ, as it makes the prompts' JSON differ.
 * Stops at the first difference; costs a visit per object, array and property, and a string comparison only where
 * the two strings are different objects.
 *
 * @param value - A value of the new prompt.
 * @param snapshot - What {@link snapshotValue} recorded of the earlier one.
 * @returns True when nothing differs.
 */
export function isSameValue(value: unknown, snapshot: Snapshot): boolean {
  if (value === snapshot) return true;
  if (typeof value !== 'object' || value === null) {
    // NaN is the one value not equal to itself.
    return typeof value === 'number' && typeof snapshot === 'number' && Number.isNaN(value) && Number.isNaN(snapshot);
  }
  if (Array.isArray(value)) {
    if (!Array.isArray(snapshot) || snapshot.length !== value.length) return false;
    const items = snapshot as readonly Snapshot[];
    for (let index = 0; index < value.length; index++) if (!isSameValue(value[index], items[index])) return false;
    return true;
  }
  if (value instanceof Uint8Array) return snapshot instanceof BytesSnapshot && snapshot.kind === 'uint8array' && sameBytes(value, snapshot.bytes);
  if (value instanceof ArrayBuffer) return snapshot instanceof BytesSnapshot && snapshot.kind === 'arraybuffer' && sameBytes(new Uint8Array(value), snapshot.bytes);
  if (value instanceof URL) return snapshot instanceof UrlSnapshot && value.href === snapshot.href;
  if (!(snapshot instanceof RecordSnapshot)) return false;
  const { keys, values } = snapshot;
  let position = 0;
  // `for … in` with an own-property check reads the keys `Object.keys` gives, in the same order, without an array.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    if (keys[position] !== key || !isSameValue(item, values[position])) return false;
    position++;
  }
  return position === keys.length;
}
