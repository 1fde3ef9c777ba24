import { InvalidFormatError, isJsonValue, type ValidationIssue } from '@ctx/core';
import type { z } from 'zod';
import type { TrajectoryFormat } from './trajectory-format.js';

// A broken file can fail on every message; the first few paths say enough.
const maximumIssues = 20;

function formatPath(path: readonly PropertyKey[]): string {
  let result = '';
  for (const key of path) {
    if (typeof key === 'number') result += `[${key}]`;
    else result += result === '' ? String(key) : `.${String(key)}`;
  }
  return result;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * Checks that `input` is parsed JSON of the shape a codec relies on, and returns it unchanged (not zod's copy: the
 * codec keeps the original objects' key order and never modifies them).
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
  const result = schema.safeParse(input);
  if (!result.success) {
    const issues: ValidationIssue[] = result.error.issues
      .slice(0, maximumIssues)
      .map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
    throw new InvalidFormatError({ format, issues, cause: result.error });
  }
  return input as T;
}
