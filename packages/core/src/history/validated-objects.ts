/**
 * What an object was validated as. A validated object is only ever trusted again in the same role: a content block
 * passed where JSON is expected is walked as JSON, not waved through.
 */
export type ValidatedKind = 'entry' | 'block' | 'entry-metadata' | 'provider-metadata' | 'json';

/**
 * Objects that `parse-history` validated, copied and froze itself, by the role they were validated for. Module-private
 * and only ever filled with frozen objects this package created, so membership proves two things no caller can fake:
 * the object passed validation, and it cannot have changed since. A look-alike (a caller's unfrozen copy, a spread of
 * a validated block with one field changed) is a different object and is validated like any input.
 */
const validated = new WeakMap<object, ValidatedKind>();

/** Records that `value` (frozen, created by the history parser) is valid in the role `kind`. */
export function markValidated(value: object, kind: ValidatedKind): void {
  validated.set(value, kind);
}

/** True when `value` is an object the history parser validated and froze in the role `kind`. */
export function isValidated(value: unknown, kind: ValidatedKind): boolean {
  return typeof value === 'object' && value !== null && validated.get(value) === kind;
}
