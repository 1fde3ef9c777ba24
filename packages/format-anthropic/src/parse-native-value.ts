import { InvalidFormatError, type ValidationIssue } from '@ctx/core';
import type { z } from 'zod';

/** Renders a zod issue path as `messages[3].content[0].tool_use_id`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let result = '';
  for (const key of path) {
    if (typeof key === 'number') result += `[${key}]`;
    else result += result === '' ? String(key) : `.${String(key)}`;
  }
  return result;
}

/** The issues of a failed parse, with paths in `a.b[2].c` notation. */
export function toValidationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/**
 * Validates input against a format's schema and returns the input itself, typed. The schemas neither transform
 * nor drop keys, so the input is exactly the parsed value; decoding reads it and never writes to it.
 *
 * @throws `InvalidFormatError` naming every failing path.
 */
export function parseNativeValue<T>(schema: z.ZodType<T>, input: unknown, format: string): T {
  const result = schema.safeParse(input);
  if (!result.success)
    throw new InvalidFormatError({ format, issues: toValidationIssues(result.error), cause: result.error });
  return input as T;
}
