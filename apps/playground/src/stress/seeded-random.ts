/** A deterministic source of numbers in [0, 1), like `Math.random` but repeatable. */
export type SeededRandom = () => number;

/** FNV-1a: turns a seed string into 32 bits, so seeds can be readable names like `8k_ToolBurst/turn 3/user`. */
function hashSeed(seed: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < seed.length; index++) {
    hash ^= seed.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Creates a seeded pseudo-random generator (mulberry32): the same seed always yields the same sequence, so every
 * chain of the stress matrix sees byte-identical generated content.
 *
 * @param seed - Any string; equal strings give equal sequences.
 * @returns A function returning the next number in [0, 1).
 * @example
 * ```ts
 * const random = createSeededRandom('8k_ToolBurst/turn 2');
 * const index = Math.floor(random() * words.length);
 * ```
 */
export function createSeededRandom(seed: string): SeededRandom {
  let state = hashSeed(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Picks one element of a non-empty list.
 *
 * @param random - The generator to draw from.
 * @param items - The list; must not be empty.
 */
export function pick<T>(random: SeededRandom, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new RangeError(`Expected a non-empty list to pick from, got ${items.length} items`);
  return item;
}

/**
 * A whole number in [min, max], both included.
 *
 * @param random - The generator to draw from.
 */
export function between(random: SeededRandom, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
