/**
 * Counts by a name read from the session (a record type, a tool name, a text kind). A map, not an object: an object
 * would count `constructor` or `__proto__` wrong. {@link Object.fromEntries} writes it out as a plain object, each
 * name an own property.
 */
export type NameCounts = Map<string, number>;

/**
 * Adds one to the count of `name`.
 *
 * @param counts - The counts.
 * @param name - The name counted.
 */
export function countName(counts: NameCounts, name: string): void {
  counts.set(name, (counts.get(name) ?? 0) + 1);
}
