import { isValidatedEntry, type Conversation, type FormatWarning } from '@ctx/core';

/**
 * A UTF-16 surrogate half without its partner. `String.prototype.isWellFormed` / `toWellFormed` do the same job
 * but are ES2024: the check uses the first where the runtime has it, and the regex keeps this package usable under the
 * ES2023 lib and in older browsers.
 */
const loneSurrogatePattern = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Any surrogate half, paired or not: most text holds none (one-byte strings never do), and this is a plain scan. */
const anySurrogatePattern = /[\uD800-\uDFFF]/;
const loneSurrogatesPattern = new RegExp(loneSurrogatePattern.source, 'g');
/** How many repaired paths a warning names. */
const pathsNamed = 3;

/** A value with its lone surrogates replaced, and where they were. */
export interface RepairedLoneSurrogates<T> {
  /** The repaired copy; the input itself when nothing needed repair. */
  readonly value: T;
  /** The JSON path of every repaired string, in document order (an object's path for a repaired key). */
  readonly repairedPaths: readonly string[];
}

/**
 * The runtime's own check, where there is one (ES2024's `String.prototype.isWellFormed`, in Node 20 and every current
 * browser): a native scan, about 1.5 times faster than the patterns below on text stored two bytes per character.
 */
const nativeIsWellFormed = (String.prototype as { readonly isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * {@link hasLoneSurrogate} by regular expressions, for runtimes without `String.prototype.isWellFormed`.
 *
 * @internal Exported for its tests.
 */
export function hasLoneSurrogateByPattern(text: string): boolean {
  // The pattern with lookarounds tries both alternatives at every position; text without any surrogate is ruled out
  // by a plain scan first, about four times faster.
  return anySurrogatePattern.test(text) && loneSurrogatePattern.test(text);
}

/**
 * Whether a string holds an unpaired UTF-16 surrogate half — text that is not valid Unicode, which providers'
 * APIs reject (usually a string cut in the middle of an emoji).
 *
 * @param text - The string to check.
 * @returns `true` when some surrogate half has no partner.
 */
export function hasLoneSurrogate(text: string): boolean {
  return nativeIsWellFormed === undefined ? hasLoneSurrogateByPattern(text) : !nativeIsWellFormed.call(text);
}

/**
 * Whether any string of a JSON value (a value or an object key, at any depth) holds a lone surrogate half: the walk
 * of {@link findLoneSurrogates} without building a path or a copy for every node, so a value with none — nearly every
 * value — costs one pass over its strings.
 */
function containsLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return hasLoneSurrogate(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    for (let index = 0; index < items.length; index++) if (containsLoneSurrogate(items[index])) return true;
    return false;
  }
  for (const key of Object.keys(value)) {
    if (hasLoneSurrogate(key) || containsLoneSurrogate((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * The answer of {@link containsLoneSurrogate} for each entry the history parser validated: such an entry is deeply
 * frozen and cannot change, so it is walked once however many requests it is encoded into.
 */
const validatedEntryAnswers = new WeakMap<object, boolean>();

/**
 * Whether any string of a conversation (a value or an object key, at any depth: its history's entries, system
 * instructions, tool definitions and provider metadata) holds an unpaired UTF-16 surrogate half. An encoder that
 * writes only these strings, whole, trimmed of white space, joined with one another or with well-formed text, or as
 * `JSON.stringify` writes them, writes no lone surrogate from a conversation without one, and may skip the walk over
 * its output that {@link repairLoneSurrogates} makes. An entry the history parser validated (`isValidatedEntry`) is
 * walked once and its answer remembered, so a conversation encoded again and again (a proxy's, an agent loop's) costs
 * a walk over its new entries.
 *
 * @param conversation - The conversation an encoder reads.
 * @returns True when some string holds a lone surrogate half.
 * @example
 * ```ts
 * const request = build(conversation);
 * const { value, repairedPaths } = conversationHoldsLoneSurrogate(conversation) ? repairLoneSurrogates(request) : { value: request, repairedPaths: [] };
 * ```
 */
export function conversationHoldsLoneSurrogate(conversation: Conversation): boolean {
  if (containsLoneSurrogate(conversation.system) || containsLoneSurrogate(conversation.tools)) return true;
  if (containsLoneSurrogate(conversation.providerMetadata)) return true;
  for (const entry of conversation.history) {
    if (!isValidatedEntry(entry)) {
      if (containsLoneSurrogate(entry)) return true;
      continue;
    }
    let holds = validatedEntryAnswers.get(entry);
    if (holds === undefined) {
      holds = containsLoneSurrogate(entry);
      validatedEntryAnswers.set(entry, holds);
    }
    if (holds) return true;
  }
  return false;
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

function walk(value: unknown, path: string, onString: (text: string, path: string) => string): unknown {
  if (typeof value === 'string') return onString(value, path);
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    let copy: unknown[] | undefined;
    items.forEach((item, index) => {
      const repaired = walk(item, childPath(path, index), onString);
      if (repaired !== item) (copy ??= [...items])[index] = repaired;
    });
    return copy ?? value;
  }
  if (typeof value !== 'object' || value === null) return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]): [string, unknown] => {
    // A bad key is reported at its object's path: putting the key into the path would repeat the bad text.
    const newKey = hasLoneSurrogate(key) ? onString(key, path) : key;
    const newItem = walk(item, childPath(path, newKey), onString);
    if (newItem !== item || newKey !== key) changed = true;
    return [newKey, newItem];
  });
  return changed ? Object.fromEntries(entries) : value;
}

/**
 * Lists every string in a JSON value (values and object keys, at any depth) that holds an unpaired UTF-16
 * surrogate half; see {@link hasLoneSurrogate}.
 *
 * @param value - A JSON value, e.g. a provider request.
 * @returns The JSON path of each such string (`messages[2].content[0].text`; an object's path for a bad key), in
 *   document order; empty when every string is well-formed.
 *
 * @example
 * ```ts
 * findLoneSurrogates({ messages: [{ role: 'user', content: 'cut \uD83D' }] }); // ['messages[0].content']
 * ```
 */
export function findLoneSurrogates(value: unknown): string[] {
  if (!containsLoneSurrogate(value)) return [];
  const paths: string[] = [];
  walk(value, '', (text, path) => {
    if (hasLoneSurrogate(text)) paths.push(path);
    return text;
  });
  return paths;
}

/**
 * Replaces every unpaired UTF-16 surrogate half in a JSON value (values and object keys, at any depth) with U+FFFD
 * (the replacement character, as `String.prototype.toWellFormed` does), so that a provider accepts the text.
 * Proper surrogate pairs (emoji) are kept. The input is not modified.
 *
 * @param value - A JSON value, e.g. an encoded provider request.
 * @returns The repaired copy (the input itself when nothing needed repair) and the paths of the repaired strings.
 *
 * @example
 * ```ts
 * const { value, repairedPaths } = repairLoneSurrogates(request);
 * const warnings = repairedPaths.length > 0 ? [loneSurrogateWarning(repairedPaths)] : [];
 * ```
 */
export function repairLoneSurrogates<T>(value: T): RepairedLoneSurrogates<T> {
  if (!containsLoneSurrogate(value)) return { value, repairedPaths: [] };
  const repairedPaths: string[] = [];
  const repaired = walk(value, '', (text, path) => {
    if (!hasLoneSurrogate(text)) return text;
    repairedPaths.push(path);
    return text.replace(loneSurrogatesPattern, '\uFFFD');
  });
  return { value: repaired as T, repairedPaths };
}

/**
 * The one warning an encoder gives for the strings {@link repairLoneSurrogates} repaired: how many, and the first
 * few paths.
 *
 * @param repairedPaths - The paths `repairLoneSurrogates` returned; at least one.
 * @returns A `lossy` warning whose `path` is the first repaired path.
 */
export function loneSurrogateWarning(repairedPaths: readonly string[]): FormatWarning {
  const count = repairedPaths.length;
  const named = repairedPaths.slice(0, pathsNamed).map((path) => path || '(the value itself)');
  const more = count > pathsNamed ? `, and ${count - pathsNamed} more` : '';
  return {
    type: 'lossy',
    message: `${count} ${count === 1 ? 'string' : 'strings'} held lone UTF-16 surrogate halves (not valid Unicode; the API rejects them), replaced with U+FFFD: ${named.join(', ')}${more}`,
    ...(repairedPaths[0] === undefined ? {} : { path: repairedPaths[0] }),
  };
}
