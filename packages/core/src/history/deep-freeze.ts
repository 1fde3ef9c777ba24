/**
 * Freezes a value and everything reachable from it. Returns the same value, typed as given.
 * Already-frozen objects are not walked again, so freezing a history that reuses frozen entries stays linear in
 * what is new.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
  return value;
}
