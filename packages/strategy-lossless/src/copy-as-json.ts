import type { JsonValue } from '@ctx/core';

/** A JSON copy of one value; undefined where `JSON.stringify` writes nothing (undefined, a function, a symbol). */
function copyValue(value: unknown): JsonValue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON writes -0 as 0, and Infinity and NaN as null.
      return Number.isFinite(value) ? value + 0 : null;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        const items = value as readonly unknown[];
        const copy = new Array<JsonValue>(items.length);
        // Indexed, so a hole becomes null as in JSON (`map` would keep it).
        for (let index = 0; index < items.length; index++) copy[index] = copyValue(items[index]) ?? null;
        return copy;
      }
      const copy: Record<string, JsonValue> = {};
      for (const key of Object.keys(value)) {
        const item = copyValue((value as Record<string, unknown>)[key]);
        if (item === undefined) continue;
        // An own property even for `__proto__`, as JSON.parse makes it (an assignment would set the prototype).
        if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
        else copy[key] = item;
      }
      return copy;
    }
    default:
      return undefined;
  }
}

/**
 * What `JSON.parse(JSON.stringify(value))` gives for plain data — fields holding `undefined` (not JSON, and provider
 * metadata must not hold them) left out, `undefined` array items and holes as `null`, -0 as 0 — copied directly
 * instead of through the text: a record is built for every block a plan rewrites. Plain data only: objects with a
 * `toJSON` method (a `Date`) or a `bigint` are not expected.
 *
 * @param value - Plain data (objects, arrays, strings, finite numbers, booleans, null, undefined fields).
 * @returns The JSON copy.
 * @example
 * ```ts
 * copyAsJson({ version: 1, whole: undefined, at: -0 }); // { version: 1, at: 0 }
 * ```
 */
export function copyAsJson(value: object): JsonValue {
  return copyValue(value) ?? null;
}
