/** Token counts of texts by content, least recently used evicted first, within a budget of characters. */
export interface TextCountCache {
  /** The count of `text`, or undefined; a hit makes `text` the most recently used. */
  get(text: string): number | undefined;
  /**
   * Remembers the count of `text`, then evicts the least recently used texts while over the budget. A text longer
   * than the whole budget is not remembered (it would evict everything, itself included).
   */
  set(text: string, count: number): void;
}

/**
 * Creates an empty {@link TextCountCache}.
 *
 * @param maxCharacters - The budget: the characters of all remembered texts together stay at most this.
 * @returns The cache.
 */
export function createTextCountCache(maxCharacters: number): TextCountCache {
  // Insertion-ordered, so the first key is the least recently used; a hit moves the text to the end.
  const counts = new Map<string, number>();
  let characters = 0;
  return {
    get(text) {
      const count = counts.get(text);
      if (count === undefined) return undefined;
      counts.delete(text);
      counts.set(text, count);
      return count;
    },
    set(text, count) {
      if (text.length > maxCharacters || counts.has(text)) return;
      counts.set(text, count);
      characters += text.length;
      for (const oldest of counts.keys()) {
        if (characters <= maxCharacters) break;
        counts.delete(oldest);
        characters -= oldest.length;
      }
    },
  };
}
