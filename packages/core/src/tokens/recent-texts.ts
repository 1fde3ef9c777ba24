/**
 * Values kept for the texts set most recently, within a number of texts and of their characters together: setting a
 * text moves it to the newest, and the oldest are forgotten first.
 */
export interface RecentTexts<Value> {
  get(text: string): Value | undefined;
  /** Keeps `value` for `text`; a text longer than the whole character budget is not kept. */
  set(text: string, value: Value): void;
}

/**
 * Creates an empty {@link RecentTexts}.
 *
 * @param maxTexts - How many texts are kept at most.
 * @param maxCharacters - How many characters the kept texts may have together.
 */
export function createRecentTexts<Value>(maxTexts: number, maxCharacters: number): RecentTexts<Value> {
  const values = new Map<string, Value>();
  let characters = 0;
  return {
    get: (text) => values.get(text),
    set(text, value) {
      if (text.length > maxCharacters) return;
      if (values.delete(text)) characters -= text.length;
      values.set(text, value);
      characters += text.length;
      for (const oldest of values.keys()) {
        if (values.size <= maxTexts && characters <= maxCharacters) break;
        values.delete(oldest);
        characters -= oldest.length;
      }
    },
  };
}
