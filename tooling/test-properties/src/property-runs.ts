/**
 * The multiplier of every property test's runs: `CTX_PROPERTY_SCALE` when it is set, else 1.
 *
 * @returns A number above 0.
 * @throws Error when `CTX_PROPERTY_SCALE` is set but is not a number above 0.
 * @example
 * ```ts
 * const testTimeout = 60_000 * Math.max(1, propertyScale());
 * ```
 */
export function propertyScale(): number {
  const value = process.env['CTX_PROPERTY_SCALE'];
  if (value === undefined || value.trim() === '') return 1;
  const scale = Number(value);
  if (!(Number.isFinite(scale) && scale > 0)) {
    throw new Error(`Expected CTX_PROPERTY_SCALE to be a number above 0 (e.g. 10 for ten times the runs), got ${JSON.stringify(value)}`);
  }
  return scale;
}

/**
 * The run count a property test uses: `defaultRuns` (what keeps the suite fast), times `CTX_PROPERTY_SCALE` when it is
 * set, for a big run of every property test at once (`CTX_PROPERTY_SCALE=10 npm test`), at least 1. The
 * provider-validity check of `@ctx/conformance` sizes itself with `CTX_PROPERTY_RUNS` instead.
 *
 * @param defaultRuns - Runs without the variable.
 * @returns The run count.
 * @throws Error when `CTX_PROPERTY_SCALE` is set but is not a number above 0.
 * @example
 * ```ts
 * fc.assert(fc.property(arbitrary, check), { numRuns: propertyRuns(300) });
 * ```
 */
export function propertyRuns(defaultRuns: number): number {
  return Math.max(1, Math.round(defaultRuns * propertyScale()));
}
