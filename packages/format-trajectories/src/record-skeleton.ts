import { isJsonObject, type JsonObject, type JsonValue } from '@ctx/core';

/** Where a value sits inside a JSON record: object keys and array indexes, outermost first. */
export type JsonPath = readonly (string | number)[];

/** The value at `path`, or undefined when the path does not exist. */
export function readPath(value: JsonValue | undefined, path: JsonPath): JsonValue | undefined {
  let current = value;
  for (const key of path) {
    if (typeof key === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = (current as readonly JsonValue[])[key];
    } else {
      if (!isJsonObject(current) || !Object.hasOwn(current, key)) return undefined;
      current = current[key];
    }
  }
  return current;
}

function setPath(
  value: JsonValue | undefined,
  path: JsonPath,
  depth: number,
  replacement: JsonValue | undefined,
): JsonValue {
  const key = path[depth];
  if (key === undefined) return replacement ?? null;
  const isLast = depth === path.length - 1;
  if (typeof key === 'number') {
    const array: JsonValue[] = Array.isArray(value) ? [...(value as readonly JsonValue[])] : [];
    array[key] = setPath(array[key], path, depth + 1, replacement);
    return array;
  }
  // Spreading keeps every key where it was; assigning an existing key does not move it. That is what makes the
  // round trip reproduce the original key order.
  const object: Record<string, JsonValue> = isJsonObject(value) ? { ...value } : {};
  if (isLast && replacement === undefined) {
    delete object[key];
  } else {
    object[key] = setPath(object[key], path, depth + 1, replacement);
  }
  return object;
}

/**
 * Copies `record` with the value at each existing path replaced by `null`: the skeleton a codec keeps in
 * `providerMetadata` for the parts of a record that content blocks already carry (message text, tool output), so the
 * canonical history holds each string once and a compressed history does not drag its original text along.
 * Only the objects along the paths are copied; everything else is shared with `record`, which is never modified.
 *
 * @param record - A native record, e.g. one message of a trajectory.
 * @param paths - The paths the blocks carry; paths that do not exist in `record` are ignored.
 * @returns The skeleton. Keys keep their positions, so {@link fillHoles} restores the original key order.
 * @example
 * ```ts
 * punchHoles({ role: 'user', content: 'hi', extra: {} }, [['content']]); // { role: 'user', content: null, extra: {} }
 * ```
 */
export function punchHoles(record: JsonObject, paths: readonly JsonPath[]): JsonObject {
  let skeleton: JsonValue = record;
  for (const path of paths) {
    if (path.length > 0 && readPath(skeleton, path) !== undefined) skeleton = setPath(skeleton, path, 0, null);
  }
  return skeleton as JsonObject;
}

/**
 * Copies `skeleton` with each path set to its value: the inverse of {@link punchHoles}. A key that exists keeps its
 * position; a missing key is appended; an `undefined` value removes the key.
 *
 * @param skeleton - A skeleton made by {@link punchHoles} (or any JSON object).
 * @param fills - Pairs of path and value.
 * @returns A new object; `skeleton` is not modified.
 * @example
 * ```ts
 * fillHoles({ role: 'user', content: null }, [[['content'], 'hi']]); // { role: 'user', content: 'hi' }
 * ```
 */
export function fillHoles(
  skeleton: JsonObject,
  fills: readonly (readonly [JsonPath, JsonValue | undefined])[],
): JsonObject {
  let record: JsonValue = skeleton;
  for (const [path, value] of fills) {
    if (path.length > 0) record = setPath(record, path, 0, value);
  }
  return record as JsonObject;
}

/**
 * A deep, mutable copy of an encoded record. Filled skeletons share subtrees with the frozen conversation they came
 * from; handing those out would make a caller's edits throw (and could let them reach the conversation).
 *
 * @param record - An encoded record.
 * @returns A structured clone.
 */
export function detachRecord(record: JsonObject): JsonObject {
  return structuredClone(record);
}
