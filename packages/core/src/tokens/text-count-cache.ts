/**
 * Token counts of texts by content within a budget of characters, evicting texts not looked up again first (the
 * clock, or second-chance, approximation of least recently used).
 */
export interface TextCountCache {
  /** The count of `text`, or undefined; a hit marks `text` as used again. */
  get(text: string): number | undefined;
  /**
   * Remembers the count of `text`, then, while over the budget, evicts texts from the oldest on: a text looked up
   * since it was remembered (or since it was last passed over) gets a second chance and moves behind the newest,
   * unmarked; the first one that was not is evicted. A text that would cost more than the whole budget is not
   * remembered (it would evict everything, itself included), and the text just remembered is never the one evicted.
   */
  set(text: string, count: number): void;
}

/** A count as stored: the count itself, or `-count - 1` once the text was looked up again (counts are ≥ 0). */
const marked = (count: number): number => -count - 1;
const countOf = (stored: number): number => (stored < 0 ? -stored - 1 : stored);

/**
 * Creates an empty {@link TextCountCache}.
 *
 * A hit writes a mark once instead of moving the text to the end of the map: a strict least-recently-used order
 * costs a delete and an insert on every hit, and the holes those leave make the map compact its table again and
 * again (hits on the chunks of a rewritten block took about three times as long).
 *
 * @param maxCharacters - The budget: the characters of all remembered texts together stay at most this.
 * @param entryCharacters - What each remembered text costs the budget beyond its own characters (its entry's
 *   bookkeeping), so that a budget spent on short texts still bounds how many entries the cache holds.
 * @returns The cache.
 */
export function createTextCountCache(maxCharacters: number, entryCharacters = 0): TextCountCache {
  // Insertion-ordered: the first key is the oldest one not moved since.
  const counts = new Map<string, number>();
  let characters = 0;
  return {
    get(text) {
      const stored = counts.get(text);
      if (stored === undefined) return undefined;
      if (stored >= 0) counts.set(text, marked(stored));
      return countOf(stored);
    },
    set(text, count) {
      const cost = text.length + entryCharacters;
      if (cost > maxCharacters || counts.has(text)) return;
      counts.set(text, count);
      characters += cost;
      if (characters <= maxCharacters) return;
      // A text moved to the end is met again later in the same loop, unmarked: the loop ends.
      for (const [oldest, stored] of counts) {
        if (characters <= maxCharacters) break;
        if (oldest === text) continue;
        counts.delete(oldest);
        if (stored < 0) counts.set(oldest, countOf(stored));
        else characters -= oldest.length + entryCharacters;
      }
    },
  };
}
