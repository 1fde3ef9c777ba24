/** A high surrogate half without its low half: what cutting an emoji in two leaves. */
const loneHigh = '\uD83D';
/** Keys whose strings the canonical model enumerates (`speaker: 'ai'`, `type: 'text'`): never damaged. */
const enumerated = new Set(['speaker', 'type']);

/**
 * A copy of a JSON-like value with a lone surrogate half put into some of its strings: for each number of `picks`,
 * the string value at that place among all string values (in document order, counted modulo their number) gets
 * `\uD83D` in its middle. Strings under a `speaker` or `type` key are left alone, so a history stays a history. For
 * properties of encoders, which must never write such text (the provider rejects it).
 *
 * @param value - Plain data (objects, arrays, strings and other primitives); not modified.
 * @param picks - Which strings to damage; empty gives an equal copy.
 * @returns The copy.
 * @example
 * ```ts
 * withLoneSurrogates({ text: 'hello' }, [0]); // { text: 'he\uD83Dllo' }
 * ```
 */
export function withLoneSurrogates<T>(value: T, picks: readonly number[]): T {
  let count = 0;
  const countStrings = (item: unknown): void => {
    if (typeof item === 'string') count++;
    else if (Array.isArray(item)) item.forEach(countStrings);
    else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) if (!(enumerated.has(key) && typeof child === 'string')) countStrings(child);
    }
  };
  countStrings(value);
  const damaged = new Set(count === 0 ? [] : picks.map((pick) => pick % count));
  let index = 0;
  const copy = (item: unknown): unknown => {
    if (typeof item === 'string') {
      const middle = item.length >> 1;
      return damaged.has(index++) ? `${item.slice(0, middle)}${loneHigh}${item.slice(middle)}` : item;
    }
    if (Array.isArray(item)) return item.map(copy);
    if (typeof item !== 'object' || item === null) return item;
    return Object.fromEntries(
      Object.entries(item).map(([key, child]) => [key, enumerated.has(key) && typeof child === 'string' ? child : copy(child)]),
    );
  };
  return copy(value) as T;
}
