/*
 * Comparing two values by serializing both costs a copy of each as text (and, to remember one, a hash of it); on the
 * messages of a long conversation that is megabytes per call. This walk gives the same answer reading each value
 * once, and parts that are the same object (or the same string) answer at once.
 */

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** What `JSON.stringify` writes a non-finite number as: `null`. */
function written(value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}

function sameItem(first: unknown, second: unknown): boolean {
  if (first === second) return true;
  if (!isObject(first) || !isObject(second)) return written(first) === written(second);
  if (Array.isArray(first)) {
    if (!Array.isArray(second) || first.length !== second.length) return false;
    // `undefined` in an array is written as `null`.
    for (let index = 0; index < first.length; index++) if (!sameItem(first[index] ?? null, second[index] ?? null)) return false;
    return true;
  }
  if (Array.isArray(second)) return false;
  const left = first as Readonly<Record<string, unknown>>;
  const right = second as Readonly<Record<string, unknown>>;
  // The keys each writes, in order: own enumerable ones whose value is not `undefined`.
  const rightKeys: string[] = [];
  for (const key in right) if (Object.hasOwn(right, key) && right[key] !== undefined) rightKeys.push(key);
  let position = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key) || left[key] === undefined) continue;
    if (rightKeys[position] !== key || !sameItem(left[key], right[key])) return false;
    position++;
  }
  return position === rightKeys.length;
}

/**
 * Whether two JSON values serialize to the same text, without serializing either: the same keys in the same order,
 * the same strings, numbers and booleans all the way down; a property whose value is `undefined` is absent (as
 * `JSON.stringify` leaves it out). Parts that are the same object are not walked, so comparing a value with one that
 * shares most of its parts is cheap.
 *
 * @param first - A value made of plain objects, arrays, strings, numbers, booleans and `null`.
 * @param second - Another.
 * @returns True exactly when `JSON.stringify(first) === JSON.stringify(second)` (for such values).
 * @example
 * ```ts
 * isSameJsonText({ role: 'user', content: 'hi' }, { role: 'user', content: 'hi', name: undefined }); // true
 * isSameJsonText({ a: 1, b: 2 }, { b: 2, a: 1 }); // false: the texts differ in order
 * ```
 */
export function isSameJsonText(first: unknown, second: unknown): boolean {
  return sameItem(first, second);
}
