import { formatIssuePath, InvalidFormatError, type ValidationIssue } from '@ctx/core';
import type { z } from 'zod';

/** How {@link toValidationIssues} turns a failed parse into issues. */
export interface SchemaIssueOptions {
  /**
   * How a union none of whose branches matched is reported.
   *
   * - `union`: as zod reports it, one issue at the union's own path.
   * - `deepest-branch`: the issues of the branch that got furthest into the input, which name the part that is
   *   wrong (e.g. `messages[2].content[0].image` rather than "content is neither a string nor a part list").
   *
   * @default 'union'
   */
  readonly unions?: 'union' | 'deepest-branch';
  /**
   * At most this many issues, in order: a broken file can fail on every message, and the first few paths say enough.
   * @default Infinity
   */
  readonly maximumIssues?: number;
}

/** Options of {@link parseNativeValue}. */
export interface ParseNativeValueOptions extends SchemaIssueOptions {
  /** The format the codec reads, e.g. `anthropic-messages`: `InvalidFormatError.format` and its message say it. */
  readonly format: string;
}

/** The outcome of {@link checkNativeValue}. */
export type NativeValueCheck<T> =
  | { readonly success: true; readonly value: T }
  | { readonly success: false; readonly issues: readonly ValidationIssue[]; readonly error: z.ZodError };

function collectIssues(
  issues: readonly z.core.$ZodIssue[],
  unions: 'union' | 'deepest-branch',
  prefix: readonly PropertyKey[] = [],
): ValidationIssue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (unions === 'deepest-branch' && issue.code === 'invalid_union' && issue.errors.length > 0) {
      const depth = (branch: readonly z.core.$ZodIssue[]) => Math.max(...branch.map((item) => item.path.length));
      const deepest = issue.errors.reduce((best, branch) => (depth(branch) > depth(best) ? branch : best));
      if (depth(deepest) > 0) return collectIssues(deepest, unions, path);
    }
    return [{ path: formatIssuePath(path), message: issue.message }];
  });
}

/**
 * The issues of a failed zod parse, with paths in `a.b[2].c` notation (`formatIssuePath` from `@ctx/core`).
 *
 * @param error - `result.error` of a failed `safeParse`.
 * @param options - How unions are reported and how many issues at most.
 * @returns One issue per problem, in zod's order.
 *
 * @example
 * ```ts
 * const result = schema.safeParse(request);
 * if (!result.success) return toValidationIssues(result.error).map((issue) => ({ rule: 'schema', ...issue }));
 * ```
 */
export function toValidationIssues(error: z.ZodError, options: SchemaIssueOptions = {}): ValidationIssue[] {
  const issues = collectIssues(error.issues, options.unions ?? 'union');
  return options.maximumIssues === undefined ? issues : issues.slice(0, options.maximumIssues);
}

/**
 * Checks a native value against a codec's schema without throwing, for validators that report problems as data.
 * On success the value is the input itself, typed: codec schemas neither transform nor drop keys, so zod's copy
 * would only lose the original objects (and their key order, `URL`s and byte arrays).
 *
 * @param schema - The format's zod schema.
 * @param input - Anything, e.g. parsed JSON.
 * @param options - How the issues are reported.
 * @returns `{ success: true, value }`, or `{ success: false, issues, error }` with zod's error.
 *
 * @example
 * ```ts
 * const check = checkNativeValue(geminiRequestSchema, input);
 * if (!check.success) return [...check.issues];
 * ```
 */
export function checkNativeValue<T>(
  schema: z.ZodType<T>,
  input: unknown,
  options: SchemaIssueOptions = {},
): NativeValueCheck<T> {
  const result = schema.safeParse(input);
  if (!result.success) return { success: false, issues: toValidationIssues(result.error, options), error: result.error };
  return { success: true, value: input as T };
}

/**
 * Validates a codec's native input against its schema and returns the input itself, typed (see
 * {@link checkNativeValue}); decoding reads it and never writes to it.
 *
 * @param schema - The format's zod schema.
 * @param input - The value handed to `decode`.
 * @param options - The format (for the error) and how the issues are reported.
 * @returns `input`, typed.
 * @throws `InvalidFormatError` (from `@ctx/core`) naming every failing path, with zod's error as `cause`.
 *
 * @example
 * ```ts
 * const request = parseNativeValue(anthropicRequestSchema, input, { format: 'anthropic-messages' });
 * ```
 */
export function parseNativeValue<T>(schema: z.ZodType<T>, input: unknown, options: ParseNativeValueOptions): T {
  const check = checkNativeValue(schema, input, options);
  if (!check.success) throw new InvalidFormatError({ format: options.format, issues: check.issues, cause: check.error });
  return check.value;
}
