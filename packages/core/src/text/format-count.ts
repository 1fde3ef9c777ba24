// Created on first use: the first `Intl.NumberFormat` of a process loads locale data (about 14 ms on Node 20), which
// a module-level formatter would add to every import of a package that writes counts.
let grouped: Intl.NumberFormat | undefined;
let rounded: Intl.NumberFormat | undefined;

/**
 * A number as ctx writes it in markers, warnings and reports: en-US digit grouping, at most three decimals
 * (`Intl.NumberFormat('en-US')`), whatever the process's locale.
 *
 * @param value - The number.
 * @returns The formatted number.
 * @example
 * ```ts
 * formatCount(12345); // '12,345'
 * ```
 */
export function formatCount(value: number): string {
  grouped ??= new Intl.NumberFormat('en-US');
  return grouped.format(value);
}

/**
 * {@link formatCount} rounded to a whole number: for token estimates and other derived figures whose decimals mean
 * nothing to a reader.
 *
 * @param value - The number.
 * @returns The rounded, formatted number.
 * @example
 * ```ts
 * formatRoundedCount(12345.6); // '12,346'
 * ```
 */
export function formatRoundedCount(value: number): string {
  rounded ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  return rounded.format(value);
}
