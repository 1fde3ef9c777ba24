import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import { InvalidStrategySettingsError } from '../errors/invalid-strategy-settings-error.js';
import { formatIssuePath } from '../errors/validation-issue.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import { findPrototypeKeys } from '../settings/find-prototype-keys.js';

/**
 * Validates a strategy's settings once, at creation, with any Standard Schema (zod, valibot, …). Strategy factories
 * call it so that every strategy reports bad settings the same way.
 *
 * @param schema - The strategy's settings schema; defaults belong in it.
 * @param input - The user's settings; `undefined` means "all defaults".
 * @param strategyName - Named in the error message.
 * @returns The validated settings, defaults filled in.
 * @throws {@link InvalidStrategySettingsError} listing `option: problem` lines, e.g.
 *   "recencyRetention: Expected an integer ≥ 1, got 0".
 *
 * @example
 * ```ts
 * const settingsSchema = z.strictObject({ minEntriesKept: z.int().min(1).default(2) });
 * export function createMyStrategy(settings?: unknown) {
 *   const resolved = parseStrategySettings(settingsSchema, settings, 'my-strategy');
 *   // …
 * }
 * ```
 */
export function parseStrategySettings<Output>(
  schema: StandardSchemaV1<unknown, Output>,
  input: unknown,
  strategyName: string,
): Output {
  const prototypeKeys = findPrototypeKeys(input);
  if (prototypeKeys.length > 0) throw new InvalidStrategySettingsError({ strategyName, issues: prototypeKeys });
  const result = schema['~standard'].validate(input ?? {});
  if (result instanceof Promise) {
    throw new CompressionStrategyError({
      strategyName,
      message: `The settings schema of strategy "${strategyName}" validates asynchronously; strategy settings must validate synchronously.`,
    });
  }
  if (result.issues !== undefined) {
    throw new InvalidStrategySettingsError({
      strategyName,
      issues: result.issues.map((issue) => ({ path: formatIssuePath(issue.path ?? []), message: issue.message })),
      cause: result.issues,
    });
  }
  return result.value;
}
