import type { JsonObject, JsonValue } from '@ctx/core';
import { setOwnField } from '@ctx/format-utils';

/** `object` without the listed keys; the input is not modified. */
export function omitKeys(object: JsonObject, keys: ReadonlySet<string>): Record<string, JsonValue> {
  const rest: Record<string, JsonValue> = {};
  for (const key of Object.keys(object)) {
    if (!keys.has(key)) setOwnField(rest, key, object[key] as JsonValue);
  }
  return rest;
}

/**
 * `fields` without the keys whose value is undefined, so the result is plain JSON (ctx schemas reject `undefined`
 * in provider metadata).
 */
export function withoutUndefined<Fields extends Record<string, unknown>>(fields: Fields): Partial<Fields> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<Fields>;
}
