// Created on first use: the first `Intl.NumberFormat` of a process loads locale data (about 14 ms on Node 20), which
// a module-level formatter would add to every import of a package that writes counts.
let grouped: Intl.NumberFormat | undefined;
let rounded: Intl.NumberFormat | undefined;

/** A whole number whose digits `String` writes as they are (not -0, which `Intl` writes as `-0`). */
function isPlainInteger(value: number): boolean {
  return Number.isSafeInteger(value) && !Object.is(value, -0);
}

/**
 * A whole number as `Intl.NumberFormat('en-US')` writes it — a comma every three digits, a hyphen-minus before a
 * negative one — built from its digits: counts are nearly always whole, and this is many times cheaper than a call
 * into ICU (markers are written for every piece a strategy cuts).
 */
function groupDigits(value: number): string {
  const digits = String(Math.abs(value));
  let text = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = text.length; at < digits.length; at += 3) text += `,${digits.slice(at, at + 3)}`;
  return value < 0 ? `-${text}` : text;
}

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
  if (isPlainInteger(value)) return groupDigits(value);
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
  if (isPlainInteger(value)) return groupDigits(value);
  rounded ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  return rounded.format(value);
}
