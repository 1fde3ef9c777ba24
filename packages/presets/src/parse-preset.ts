import { formatIssuePath } from '@ctx/core';
import { InvalidPresetError } from './invalid-preset-error.js';
import { presetSchema, type Preset } from './preset.js';

function describeFound(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : JSON.stringify(value);
}

/**
 * Validates a preset read from JSON (a saved or imported file, an API payload).
 *
 * @param input - The parsed JSON value.
 * @returns The preset, with only the fields of the format (unknown fields are refused, not dropped).
 * @throws {@link InvalidPresetError} listing every problem as `path: problem`, e.g.
 *   `strategies[1].strategy: expected a kebab-case name …, got "High Density"`.
 */
export function parsePreset(input: unknown): Preset {
  const result = presetSchema.safeParse(input);
  if (result.success) return result.data;
  const name = typeof input === 'object' && input !== null && 'name' in input ? (input).name : undefined;
  throw new InvalidPresetError({
    presetName: typeof name === 'string' ? name : undefined,
    issues: result.error.issues.map((issue) => {
      const path = formatIssuePath(issue.path);
      let found: unknown = input;
      for (const segment of issue.path) found = typeof found === 'object' && found !== null ? (found as Record<PropertyKey, unknown>)[segment] : undefined;
      if (issue.code === 'unrecognized_keys') return { path, message: issue.message };
      // zod's own text for a missing field already says what it received.
      if (found === undefined) return { path, message: 'required, got nothing' };
      return { path, message: `${issue.message}, got ${describeFound(found)}` };
    }),
    cause: result.error,
  });
}

/**
 * Parses a preset from JSON text.
 *
 * @throws {@link InvalidPresetError} when the text is not JSON (the message says where it stops parsing) or not a preset.
 */
export function parsePresetJson(text: string): Preset {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidPresetError({ issues: [{ path: '', message: `expected JSON: ${(error as Error).message}` }], cause: error });
  }
  return parsePreset(value);
}

/** The preset as the JSON `parsePresetJson` reads back (two-space indented, with a final newline). */
export function presetToJson(preset: Preset): string {
  return `${JSON.stringify(parsePreset(preset), null, 2)}\n`;
}
