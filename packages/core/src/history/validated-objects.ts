/**
 * What an object was validated as. A validated object is only ever trusted again in the same role: a content block
 * passed where JSON is expected is walked as JSON, not waved through.
 */
export type ValidatedKind = 'entry' | 'block' | 'entry-metadata' | 'provider-metadata' | 'json';

/** A base whose constructor hands back the object it is given, so a subclass can add a private field to it. */
class Returning {
  constructor(value: object) {
    return value;
  }
}

/**
 * Objects that `parse-history` validated, copied and froze itself carry this module's private field, set to the role
 * they were validated for. Only this class can add or read the field, and it adds it only to copies this package made
 * and freezes right after, so carrying it proves two things no caller can fake: the object passed validation, and it
 * cannot have changed since. A look-alike (a caller's unfrozen copy, a spread of a validated block with one field
 * changed, a structured clone, a proxy) is a different object without the field and is validated like any input.
 *
 * A private field rather than a module-wide `WeakMap`: every entry added to a history marks several objects, and a
 * `WeakMap` of them cost a third of validating a large session (hashing each object's identity, growing the table)
 * and weighed on every garbage collection while they lived; a field is one more property of the object.
 */
class ValidatedMark extends Returning {
  readonly #kind: ValidatedKind;

  private constructor(value: object, kind: ValidatedKind) {
    super(value);
    this.#kind = kind;
  }

  /** Adds the mark to `value`, which must not carry it yet and must still be extensible (it is frozen right after). */
  static add(value: object, kind: ValidatedKind): void {
    new ValidatedMark(value, kind);
  }

  static kindOf(value: object): ValidatedKind | undefined {
    return #kind in value ? value.#kind : undefined;
  }
}

/**
 * Records that `value`, an object the history parser created and has not frozen yet, is valid in the role `kind`;
 * the caller freezes it (deeply) right after, before anyone else sees it.
 */
export function markValidated(value: object, kind: ValidatedKind): void {
  ValidatedMark.add(value, kind);
}

/** {@link markValidated}, then freezes `value` (shallowly: its parts were frozen as they were copied) and returns it. */
export function freezeValidated<T extends object>(value: T, kind: ValidatedKind): Readonly<T> {
  ValidatedMark.add(value, kind);
  return Object.freeze(value);
}

/** True when `value` is an object the history parser validated and froze in the role `kind`. */
export function isValidated(value: unknown, kind: ValidatedKind): boolean {
  return typeof value === 'object' && value !== null && ValidatedMark.kindOf(value) === kind;
}
