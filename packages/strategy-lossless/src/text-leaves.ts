import type { JsonValue } from '@ctx/core';

/** Where a string sits inside a JSON value: object keys and array indices from the root. */
export type LeafPath = readonly (string | number)[];

/** One string of a JSON value and where it sits. */
export interface TextLeaf {
  readonly path: LeafPath;
  readonly text: string;
}

// Keys whose strings are what a tool printed (Anthropic content parts, gemini `functionResponse.response`,
// OpenHands and SWE-agent fields). Ids, names, media types and base64 `data` are never text: rewriting them would
// break the block for the provider.
const textKeys = new Set(['text', 'output', 'content', 'stdout', 'stderr', 'error', 'llmContent', 'result']);
const maximumDepth = 6;

type Scope = 'text' | 'any';

function collect(value: JsonValue, path: (string | number)[], scope: Scope, leaves: TextLeaf[], isText: boolean): void {
  if (typeof value === 'string') {
    if (isText) leaves.push({ path: [...path], text: value });
    return;
  }
  if (typeof value !== 'object' || value === null || path.length >= maximumDepth) return;
  if (Array.isArray(value)) {
    (value as readonly JsonValue[]).forEach((item, index) => {
      path.push(index);
      collect(item, path, scope, leaves, isText || scope === 'any');
      path.pop();
    });
    return;
  }
  for (const [key, item] of Object.entries(value as { readonly [key: string]: JsonValue })) {
    path.push(key);
    collect(item, path, scope, leaves, scope === 'any' || textKeys.has(key));
    path.pop();
  }
}

/**
 * The strings of a JSON value, in document order.
 *
 * @param value - A tool result or tool call parameters.
 * @param options - `scope: 'text'` (for results) keeps the root string, array items and strings under keys that
 *   hold printed text (`text`, `output`, `content`, `stdout`, `stderr`, `error`, `llmContent`, `result`), so ids,
 *   names and base64 data are left alone; `scope: 'any'` (for parameters the model wrote) keeps every string.
 * @returns The strings with their paths.
 * @example
 * ```ts
 * listTextLeaves([{ type: 'text', text: 'a' }], { scope: 'text' }); // [{ path: [0, 'text'], text: 'a' }]
 * ```
 */
export function listTextLeaves(value: JsonValue, options: { readonly scope: Scope }): TextLeaf[] {
  const leaves: TextLeaf[] = [];
  collect(value, [], options.scope, leaves, true);
  return leaves;
}

/**
 * The string at `path`, or undefined when there is none.
 *
 * @param value - A JSON value.
 * @param path - Keys and indices from the root.
 * @returns The string found there.
 * @example
 * ```ts
 * readTextLeaf({ output: 'ok' }, ['output']); // 'ok'
 * ```
 */
export function readTextLeaf(value: JsonValue, path: LeafPath): string | undefined {
  let current: JsonValue | undefined = value;
  for (const step of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = Array.isArray(current)
      ? (current as readonly JsonValue[])[step as number]
      : (current as { readonly [key: string]: JsonValue })[step as string];
  }
  return typeof current === 'string' ? current : undefined;
}

/**
 * A copy of `value` with the string at `path` replaced; everything off the path is shared, key order is kept.
 *
 * @param value - A JSON value; not modified.
 * @param path - Where the string is (from {@link listTextLeaves}).
 * @param text - The new string.
 * @returns The new value.
 * @throws Error when nothing is at `path` (a caller bug, not a data problem).
 * @example
 * ```ts
 * replaceTextLeaf([{ type: 'text', text: 'a' }], [0, 'text'], 'b'); // [{ type: 'text', text: 'b' }]
 * ```
 */
export function replaceTextLeaf(value: JsonValue, path: LeafPath, text: string): JsonValue {
  if (path.length === 0) return text;
  const [step, ...rest] = path;
  if (Array.isArray(value)) {
    const items = value as readonly JsonValue[];
    const index = step as number;
    if (typeof step !== 'number' || index >= items.length) throw new Error(`No array item at ${String(step)}`);
    return items.map((item, itemIndex) => (itemIndex === index ? replaceTextLeaf(item, rest, text) : item));
  }
  if (typeof value !== 'object' || value === null || typeof step !== 'string' || !(step in value)) {
    throw new Error(`No key ${String(step)} to replace`);
  }
  const record = value as { readonly [key: string]: JsonValue };
  return { ...record, [step]: replaceTextLeaf(record[step] as JsonValue, rest, text) };
}

/**
 * A string key for a leaf path, for maps.
 *
 * @param path - Keys and indices from the root.
 * @returns A key equal for equal paths.
 * @example
 * ```ts
 * leafPathKey([0, 'text']); // '[0,"text"]'
 * ```
 */
export function leafPathKey(path: LeafPath): string {
  return JSON.stringify(path);
}
