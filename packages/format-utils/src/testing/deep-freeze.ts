/**
 * Freezes a value and everything in it, so a test fails if the code under test writes to its input (codecs must
 * never modify what they decode or encode).
 *
 * @param value - Any value; objects and arrays are frozen in place, recursively.
 * @returns `value`.
 *
 * @example
 * ```ts
 * codec.decode(deepFreeze(structuredClone(input))); // throws in strict mode if decode writes to its input
 * ```
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
