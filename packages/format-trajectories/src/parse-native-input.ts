import { InvalidFormatError, isJsonValue } from '@ctx/core';
import { parseNativeValue } from '@ctx/format-utils';
import type { z } from 'zod';
import type { TrajectoryFormat } from './trajectory-format.js';

// A broken file can fail on every message; the first few paths say enough.
const maximumIssues = 20;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * Checks that `input` is parsed JSON of the shape a codec relies on, and returns it unchanged (not zod's copy: the
 * codec keeps the original objects' key order and never modifies them). Trajectories are JSON files, so anything
 * `JSON.parse` cannot produce is rejected before the schema runs.
 *
 * @param schema - A loose zod schema of the fields the codec reads; other keys pass through untouched.
 * @param input - The value handed to `decode`.
 * @param format - The codec's format, for the error.
 * @returns `input`, typed.
 * @throws {@link InvalidFormatError} naming every failing path (up to 20), e.g. `messages[3].content`.
 */
export function parseNativeInput<T>(schema: z.ZodType<T>, input: unknown, format: TrajectoryFormat): T {
  if (!isJsonValue(input)) {
    throw new InvalidFormatError({
      format,
      issues: [{ path: '', message: `Expected parsed JSON (e.g. the result of JSON.parse), found ${describe(input)}` }],
    });
  }
  return parseNativeValue(schema, input, { format, maximumIssues });
}
