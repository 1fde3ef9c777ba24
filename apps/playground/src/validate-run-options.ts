import { CliError } from './cli-io.js';

/**
 * Checks the budget options shared by `ctx compare` and `ctx compress`.
 *
 * @throws {@link CliError} with one line naming the option.
 */
export function validateRunOptions(options: { readonly window?: number; readonly budget?: number; readonly threshold?: number }): void {
  if (options.window !== undefined && !(Number.isInteger(options.window) && options.window > 0)) {
    throw new CliError(`--window expects a positive whole number of tokens, got ${options.window}`);
  }
  if (options.budget !== undefined && !(Number.isInteger(options.budget) && options.budget >= 0)) {
    throw new CliError(`--budget expects a whole number of tokens, got ${options.budget}`);
  }
  if (options.threshold !== undefined && !(options.threshold > 0 && options.threshold <= 1)) {
    throw new CliError(`--threshold expects a fraction in (0, 1], got ${options.threshold}`);
  }
}
