/**
 * Sets `record[key] = value` as an own, enumerable, writable property, for every key a JSON object can hold. Plain
 * assignment with the key `__proto__` sets the record's prototype instead of a field (JSON.parse, object spread and
 * `structuredClone` keep such a key as a field), so a codec copying the unknown fields of a request that has one
 * would drop it from what it sends back.
 *
 * @param record - The object being built.
 * @param key - Any field name, `__proto__` included.
 * @param value - The field's value.
 * @example
 * ```ts
 * const fields: Record<string, unknown> = {};
 * setOwnField(fields, '__proto__', { x: 1 });
 * JSON.stringify(fields); // '{"__proto__":{"x":1}}'
 * ```
 */
export function setOwnField<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
