import { escapeForTerminal } from '../terminal-text.js';
import { benchParts, isBenchPart, type BenchPart } from './bench-parts.js';
import { UsageError } from '../usage-error.js';

/** The most sessions `--sessions` accepts: each is replayed once per strategy, so more only takes longer. */
export const MAX_BENCH_SESSIONS = 20;

/**
 * Parses `--sessions`: how many sessions to replay, a whole number from 1 to {@link MAX_BENCH_SESSIONS}.
 *
 * @param text - The option's value as typed.
 * @throws {@link UsageError} naming the option, what it expects and what was given.
 */
export function parseSessionsOption(text: string): number {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > MAX_BENCH_SESSIONS) {
    throw new UsageError(`--sessions expects a whole number from 1 to ${MAX_BENCH_SESSIONS}, got ${text.trim() === '' ? JSON.stringify(text) : escapeForTerminal(text)}`);
  }
  return value;
}

/**
 * Parses `--only`: the parts of the run to measure, comma-separated (see {@link benchParts}); a part named twice counts once.
 *
 * @param text - The option's value as typed, e.g. `replay,calls`.
 * @returns The parts, in the order a run measures them.
 * @throws {@link UsageError} naming the option, the parts it accepts and what was given.
 */
export function parseOnlyOption(text: string): readonly BenchPart[] {
  const names = text.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !isBenchPart(name));
  if (names.length === 0 || unknown.length > 0) {
    const found = unknown.length === 0 ? JSON.stringify(text) : unknown.map((name) => escapeForTerminal(name)).join(', ');
    throw new UsageError(`--only expects parts of the run from ${benchParts.join(', ')} (comma-separated), got ${found}`);
  }
  return benchParts.filter((part) => names.includes(part));
}
