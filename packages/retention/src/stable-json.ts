function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return (value as readonly unknown[]).map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as { readonly [key: string]: unknown };
  const sorted: { [key: string]: unknown } = {};
  for (const key of Object.keys(record).sort()) {
    if (record[key] !== undefined) sorted[key] = sortKeys(record[key]);
  }
  return sorted;
}

/**
 * JSON text that is the same for equal values whatever their key order: two tool calls "with the same parameters"
 * or two results "with the same content" compare equal even when a strategy rebuilt the objects.
 *
 * @param value - A JSON value or a content block (blocks are JSON by contract).
 * @returns The JSON text with object keys sorted at every level and undefined fields left out.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}
