import { escapeForTerminal } from './terminal-text.js';
import { UsageError } from './usage-error.js';

/** The largest `--window` and `--budget` accepted: a hundred million tokens, far above any model's window. */
export const MAX_TOKEN_OPTION = 100_000_000;

/** The most `--runs` accepted: the median of 100 runs is as steady as it gets; more only takes longer. */
export const MAX_RUNS = 100;

const integer = new Intl.NumberFormat('en-US');

/** A decimal number as people type it: `12`, `0.5`, `.5`, `1e3`; not `0x10`, `Infinity`, `NaN` or an empty string. */
const decimalNumber = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** What each numeric option accepts, and how to say so. */
interface NumericBound {
  readonly option: string;
  readonly expected: string;
  readonly accepts: (value: number) => boolean;
}

const wholeNumber = (minimum: number, maximum: number) => (value: number) =>
  Number.isInteger(value) && value >= minimum && value <= maximum;

const windowBound: NumericBound = {
  option: '--window',
  expected: `a whole number of tokens from 1 to ${integer.format(MAX_TOKEN_OPTION)}`,
  accepts: wholeNumber(1, MAX_TOKEN_OPTION),
};
const budgetBound: NumericBound = {
  option: '--budget',
  expected: `a whole number of tokens from 0 to ${integer.format(MAX_TOKEN_OPTION)}`,
  accepts: wholeNumber(0, MAX_TOKEN_OPTION),
};
const thresholdBound: NumericBound = {
  option: '--threshold',
  expected: 'a fraction in (0, 1]',
  accepts: (value) => value > 0 && value <= 1,
};
const summarizerWindowBound: NumericBound = {
  option: '--summarizer-window',
  expected: `a whole number of tokens from 1,000 to ${integer.format(MAX_TOKEN_OPTION)}`,
  accepts: wholeNumber(1_000, MAX_TOKEN_OPTION),
};
const runsBound: NumericBound = {
  option: '--runs',
  expected: `a whole number from 1 to ${MAX_RUNS}`,
  accepts: wholeNumber(1, MAX_RUNS),
};

function usageError(bound: NumericBound, given: string): UsageError {
  return new UsageError(`${bound.option} expects ${bound.expected}, got ${escapeForTerminal(given)}`);
}

function parser(bound: NumericBound): (text: string) => number {
  return (text) => {
    const value = decimalNumber.test(text.trim()) ? Number(text) : Number.NaN;
    // An empty value is shown quoted, so the message does not end in nothing.
    if (!bound.accepts(value)) throw usageError(bound, text.trim() === '' ? JSON.stringify(text) : text);
    // `-0` is accepted as 0 but printed as 0.
    return value === 0 ? 0 : value;
  };
}

/** Parses `--window` as commander reads it: a whole number of tokens from 1 to {@link MAX_TOKEN_OPTION}. @throws {@link UsageError} */
export const parseWindowOption: (text: string) => number = parser(windowBound);
/** Parses `--budget`: a whole number of tokens from 0 to {@link MAX_TOKEN_OPTION}. @throws {@link UsageError} */
export const parseBudgetOption: (text: string) => number = parser(budgetBound);
/** Parses `--threshold`: a fraction in (0, 1]. @throws {@link UsageError} */
export const parseThresholdOption: (text: string) => number = parser(thresholdBound);
/** Parses `--summarizer-window`: a whole number of tokens from 1,000 to {@link MAX_TOKEN_OPTION}. @throws {@link UsageError} */
export const parseSummarizerWindowOption: (text: string) => number = parser(summarizerWindowBound);
/** Parses `--runs`: a whole number from 1 to {@link MAX_RUNS}. @throws {@link UsageError} */
export const parseRunsOption: (text: string) => number = parser(runsBound);

/**
 * Checks the budget options shared by `ctx compare` and `ctx compress` when they come from code rather than the
 * command line (the command line parses them with the `parse…Option` functions, which apply the same bounds).
 *
 * @throws {@link UsageError} with one line naming the option.
 */
export function validateRunOptions(options: { readonly window?: number; readonly budget?: number; readonly threshold?: number }): void {
  const checks: [NumericBound, number | undefined][] = [
    [windowBound, options.window],
    [budgetBound, options.budget],
    [thresholdBound, options.threshold],
  ];
  for (const [bound, value] of checks) {
    if (value !== undefined && !bound.accepts(value)) throw usageError(bound, String(value));
  }
}
