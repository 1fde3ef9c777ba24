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

/** Opens an array in a snapshot's slots: its length follows, then its items. */
const arrayMark = Object.freeze({ mark: 'array' });
/** Opens an object in a snapshot's slots: how many properties follow, then each property's key and value. */
const recordMark = Object.freeze({ mark: 'record' });

/**
 * What {@link snapshotValue} records: a value no later change to the original reaches, written out depth first into
 * one flat list of slots. A comparison then reads one array from start to end instead of following a tree of small
 * objects scattered over the heap: on a long conversation, where the snapshots are old and the processor's caches
 * hold other work, most of the comparison's time is waiting for memory.
 */
export class Snapshot {
  /** @internal */
  constructor(readonly slots: readonly unknown[]) {}
}

function write(value: unknown, slots: unknown[]): void {
  if (typeof value !== 'object' || value === null) {
    slots.push(value);
    return;
  }
  if (Array.isArray(value)) {
    slots.push(arrayMark, value.length);
    for (let index = 0; index < value.length; index++) write(value[index], slots);
    return;
  }
  // A copy of the bytes (a Node `Buffer`'s own `slice` would share them).
  if (value instanceof Uint8Array) slots.push(new BytesSnapshot('uint8array', new Uint8Array(value)));
  else if (value instanceof ArrayBuffer) slots.push(new BytesSnapshot('arraybuffer', new Uint8Array(value.slice(0))));
  else if (value instanceof URL) slots.push(new UrlSnapshot(value.href));
  else {
    slots.push(recordMark, 0);
    const countAt = slots.length - 1;
    let count = 0;
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      slots.push(key);
      write(item, slots);
      count++;
    }
    slots[countAt] = count;
  }
}

/**
 * A copy of `value` that no later change to `value` reaches: arrays and objects copied level by level (an object's
 * own enumerable properties whose value is not `undefined`, which a prompt treats as absent), the contents of
 * `Uint8Array`s and `ArrayBuffer`s copied, a `URL` kept as its address; strings and other primitives kept as they are.
 *
 * @param value - A value of a prompt.
 * @returns The snapshot to compare later prompts with ({@link isSameValue}).
 */
export function snapshotValue(value: unknown): Snapshot {
  const slots: unknown[] = [];
  write(value, slots);
  return new Snapshot(slots);
}

function sameBytes(first: Uint8Array, second: Uint8Array): boolean {
  if (first.length !== second.length) return false;
  for (let index = 0; index < first.length; index++) if (first[index] !== second[index]) return false;
  return true;
}

/** Compares `value` with the snapshot written from `slots[at]` on; the slot after it, or -1 when they differ. */
function read(value: unknown, slots: readonly unknown[], at: number): number {
  const slot = slots[at];
  // Slots that are objects are this module's own, never a value of a prompt: only primitives are equal here.
  if (value === slot) return at + 1;
  if (typeof value !== 'object' || value === null) {
    // NaN is the one value not equal to itself.
    return typeof value === 'number' && typeof slot === 'number' && Number.isNaN(value) && Number.isNaN(slot) ? at + 1 : -1;
  }
  // Plain objects first: nearly every object of a prompt is one.
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) {
    if (Array.isArray(value)) {
      if (slot !== arrayMark || slots[at + 1] !== value.length) return -1;
      let next = at + 2;
      for (let index = 0; index < value.length && next !== -1; index++) next = read(value[index], slots, next);
      return next;
    }
    if (value instanceof Uint8Array) return slot instanceof BytesSnapshot && slot.kind === 'uint8array' && sameBytes(value, slot.bytes) ? at + 1 : -1;
    if (value instanceof ArrayBuffer) return slot instanceof BytesSnapshot && slot.kind === 'arraybuffer' && sameBytes(new Uint8Array(value), slot.bytes) ? at + 1 : -1;
    if (value instanceof URL) return slot instanceof UrlSnapshot && value.href === slot.href ? at + 1 : -1;
  }
  if (slot !== recordMark) return -1;
  const count = slots[at + 1] as number;
  let next = at + 2;
  let position = 0;
  // `for … in` with an own-property check reads the keys `Object.keys` gives, in the same order, without an array.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    if (position === count || slots[next] !== key) return -1;
    next = read(item, slots, next + 1);
    if (next === -1) return -1;
    position++;
  }
  return position === count ? next : -1;
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
  return read(value, snapshot.slots, 0) === snapshot.slots.length;
}
