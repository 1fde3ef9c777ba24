import { z } from 'zod';

/** A value that survives `JSON.stringify` / `JSON.parse` unchanged: what tool parameters and results are made of. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | JsonObject;

/** A JSON object: string keys, JSON values. */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** Narrows a JSON value to an array (unlike `Array.isArray`, keeps the element type). */
export function isJsonArray(value: JsonValue | undefined): value is readonly JsonValue[] {
  return Array.isArray(value);
}

/** Narrows a JSON value to an object (not null, not an array). */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True for strings, finite numbers, booleans, null, arrays of JSON values and plain objects of JSON values.
 * Object properties whose value is `undefined` are tolerated (JSON drops them), as TypeScript code produces them
 * routinely for optional fields.
 */
export function isJsonValue(value: unknown): value is JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) return value.every(isJsonValue);
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) return false;
      return Object.values(value).every((item) => item === undefined || isJsonValue(item));
    }
    default:
      return false;
  }
}

/** What a value that is not JSON is told. @internal */
export const jsonValueMessage = 'Expected a JSON value (string, finite number, boolean, null, array or plain object)';

/** Schema of a JSON value (see {@link isJsonValue}). */
export const jsonValueSchema = z.custom<JsonValue>(isJsonValue, { message: jsonValueMessage });
