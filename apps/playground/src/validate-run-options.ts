import { CliError } from './cli-io.js';

/** The largest `--window` and `--budget` accepted: a hundred million tokens, far above any model's window. */
export const MAX_TOKEN_OPTION = 100_000_000;

/** The most `--runs` accepted: the median of 100 runs is as steady as it gets; more only takes longer. */
export const MAX_RUNS = 100;

const integer = new Intl.NumberFormat('en-US');

/**
 * Checks the budget options shared by `ctx compare` and `ctx compress`.
 *
 * @throws {@link CliError} with one line naming the option.
 */
export function validateRunOptions(options: { readonly window?: number; readonly budget?: number; readonly threshold?: number }): void {
  if (options.window !== undefined && !(Number.isInteger(options.window) && options.window > 0 && options.window <= MAX_TOKEN_OPTION)) {
    throw new CliError(`--window expects a whole number of tokens from 1 to ${integer.format(MAX_TOKEN_OPTION)}, got ${options.window}`);
  }
  if (options.budget !== undefined && !(Number.isInteger(options.budget) && options.budget >= 0 && options.budget <= MAX_TOKEN_OPTION)) {
    throw new CliError(`--budget expects a whole number of tokens from 0 to ${integer.format(MAX_TOKEN_OPTION)}, got ${options.budget}`);
  }
  if (options.threshold !== undefined && !(options.threshold > 0 && options.threshold <= 1)) {
    throw new CliError(`--threshold expects a fraction in (0, 1], got ${options.threshold}`);
  }
}
