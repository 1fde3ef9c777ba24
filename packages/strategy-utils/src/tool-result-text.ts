import type { JsonValue } from '@ctx/core';

function collect(value: JsonValue, parts: string[], depth: number): void {
  if (typeof value === 'string') {
    parts.push(value);
    return;
  }
  if (depth > 3 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value as readonly JsonValue[]) collect(item, parts, depth + 1);
    return;
  }
  const record = value as { readonly [key: string]: JsonValue };
  for (const key of ['text', 'output', 'content', 'stdout', 'error'] as const) {
    const field = record[key];
    if (field !== undefined) collect(field, parts, depth + 1);
  }
}

/**
 * The text of a tool result: the string itself, or the `text` / `output` / `content` / `stdout` / `error`
 * strings of structured results (Anthropic content parts, gemini `functionResponse.response`), joined by newlines.
 * Images and other parts contribute nothing.
 *
 * @param result - A `tool_response` block's `result`.
 * @returns The readable text of the result ('' when it has none).
 * @example
 * ```ts
 * toolResultText([{ type: 'text', text: 'a' }, { type: 'image', source: {} }, { type: 'text', text: 'b' }]); // 'a\nb'
 * ```
 */
export function toolResultText(result: JsonValue): string {
  if (typeof result === 'string') return result;
  return toolResultParts(result).join('\n');
}

/**
 * The strings {@link toolResultText} joins, in order, without joining them: for reading a large structured result
 * piece by piece (nothing that does not span a line break can span two pieces) without copying it.
 *
 * @param result - A `tool_response` block's `result`.
 * @returns The result itself for a string; otherwise its `text` / `output` / `content` / `stdout` / `error` strings.
 * @example
 * ```ts
 * toolResultParts([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]); // ['a', 'b']
 * ```
 */
export function toolResultParts(result: JsonValue): readonly string[] {
  if (typeof result === 'string') return [result];
  const parts: string[] = [];
  collect(result, parts, 0);
  return parts;
}
