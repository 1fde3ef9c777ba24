import { escapeForTerminal } from '../terminal-text.js';
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
