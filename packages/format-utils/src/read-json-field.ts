import { isJsonObject, type JsonObject } from '@ctx/core';

/**
 * The string field `key` of a JSON object (a native record, or a codec's own provider metadata).
 *
 * @param object - The object, or undefined.
 * @param key - The field's name.
 * @returns The value, or undefined when the object or the field is missing or the value is not a string.
 *
 * @example
 * ```ts
 * readStringField(providerMetadata?.gemini, 'thoughtSignature');
 * ```
 */
export function readStringField(object: JsonObject | undefined, key: string): string | undefined {
  const value = object?.[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The number field `key` of a JSON object.
 *
 * @param object - The object, or undefined.
 * @param key - The field's name.
 * @returns The value, or undefined when missing or not a finite number.
 */
export function readNumberField(object: JsonObject | undefined, key: string): number | undefined {
  const value = object?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The object field `key` of a JSON object.
 *
 * @param object - The object, or undefined.
 * @param key - The field's name.
 * @returns The value, or undefined when missing or not an object (arrays and null are not objects here).
 */
export function readObjectField(object: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = object?.[key];
  return isJsonObject(value) ? value : undefined;
}

/**
 * Whether the boolean field `key` of a JSON object is `true` (markers are written only when set).
 *
 * @param object - The object, or undefined.
 * @param key - The field's name.
 * @returns True only for the value `true`.
 */
export function isFlagSet(object: JsonObject | undefined, key: string): boolean {
  return object?.[key] === true;
}
