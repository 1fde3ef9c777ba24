import type { JsonValue } from '@ctx/core';
import { setOwnField } from './set-own-field.js';

/**
 * The fields of a native object other than `omitted`: what a codec keeps in its provider metadata because the
 * canonical model has no place for it. Fields whose value is `undefined` are left out (JSON has none; TypeScript
 * callers may).
 *
 * @param value - A native object whose fields the codec's schema has checked to be JSON values.
 * @param omitted - The fields the canonical block already holds.
 * @returns A new object; `value` is not modified.
 *
 * @example
 * ```ts
 * fieldsExcept({ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }, ['type', 'text']);
 * // { cache_control: { type: 'ephemeral' } }
 * ```
 */
export function fieldsExcept(value: object, omitted: readonly string[]): Record<string, JsonValue> {
  const fields: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!omitted.includes(key) && item !== undefined) setOwnField(fields, key, item as JsonValue);
  }
  return fields;
}
