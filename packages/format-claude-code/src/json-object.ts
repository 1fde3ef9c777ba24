import type { JsonValue } from '@ctx/core';

/** A JSON object, as `JSON.parse` returns it for one Claude Code record. */
export type JsonObject = { readonly [key: string]: JsonValue };

/**
 * True for a plain JSON object (not an array, not null).
 *
 * @param value - A parsed JSON value.
 * @returns Whether `value` is an object whose fields can be read by name.
 */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The string field `key` of `object`, or undefined when it is missing or not a string. */
export function readString(object: JsonObject | undefined, key: string): string | undefined {
  const value = object?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** The number field `key` of `object`, or undefined when it is missing or not a finite number. */
export function readNumber(object: JsonObject | undefined, key: string): number | undefined {
  const value = object?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The object field `key` of `object`, or undefined when it is missing or not an object. */
export function readObject(object: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = object?.[key];
  return isJsonObject(value) ? value : undefined;
}

/** `object` without the listed keys; the input is not modified. */
export function omitKeys(object: JsonObject, keys: ReadonlySet<string>): Record<string, JsonValue> {
  const rest: Record<string, JsonValue> = {};
  for (const key of Object.keys(object)) {
    if (!keys.has(key)) rest[key] = object[key] as JsonValue;
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

/** True for a JSON array (`Array.isArray` alone would widen it to `any[]`). */
export function isJsonArray(value: JsonValue | undefined): value is readonly JsonValue[] {
  return Array.isArray(value);
}
