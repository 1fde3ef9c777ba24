/**
 * Deep equality of JSON-like values (what history entries are made of): objects compare by their keys whatever
 * their order, a key whose value is `undefined` counts as absent (JSON drops it), arrays element by element.
 * Identical references answer at once, so comparing an entry with a copy that shares most of its parts is cheap.
 * Where key order matters too (the text a value serializes to), see `isSameJsonText` in `@ctx/strategy-utils`.
 *
 * @param first - A value.
 * @param second - Another value.
 * @returns Whether they hold the same JSON, key order aside.
 * @example
 * ```ts
 * isSameJson({ a: 1, b: undefined }, { a: 1 }); // true
 * ```
 */
export function isSameJson(first: unknown, second: unknown): boolean {
  if (first === second) return true;
  if (typeof first !== 'object' || typeof second !== 'object' || first === null || second === null) return false;
  if (Array.isArray(first)) {
    if (!Array.isArray(second) || first.length !== second.length) return false;
    for (let index = 0; index < first.length; index++) if (!isSameJson(first[index], second[index])) return false;
    return true;
  }
  if (Array.isArray(second)) return false;
  const left = first as Readonly<Record<string, unknown>>;
  const right = second as Readonly<Record<string, unknown>>;
  let leftKeys = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key) || left[key] === undefined) continue;
    leftKeys++;
    if (!Object.hasOwn(right, key) || !isSameJson(left[key], right[key])) return false;
  }
  let rightKeys = 0;
  for (const key in right) if (Object.hasOwn(right, key) && right[key] !== undefined) rightKeys++;
  return leftKeys === rightKeys;
}
