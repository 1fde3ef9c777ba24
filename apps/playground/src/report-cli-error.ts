import { CommanderError } from 'commander';
import { CtxError } from '@ctx/core';
import type { CliIo } from './cli-io.js';
import { exitCodes } from './exit-codes.js';
import { escapeForTerminal } from './terminal-text.js';
import { TranscriptLoadError } from './transcript-load-error.js';
import { UsageError } from './usage-error.js';

/** An error of the operating system (a file that cannot be read, a full disk): the user's to fix, not a bug. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

/** A thrown value that is not an Error (`throw 'x'`, `throw { code: 1 }`), as text. */
function describeThrown(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    try {
      return JSON.stringify(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
  return String(value);
}

function oneLine(text: string): string {
  // One line, and no raw bytes from a broken input file reach the terminal.
  return escapeForTerminal(text.split('\n').join(' '));
}

/** The stack of `error` and of each of its causes, every line escaped for the terminal. */
function stackLines(error: unknown): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 10; depth++) {
    const text = current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : describeThrown(current);
    lines.push(...(depth === 0 ? [] : ['Caused by:']), ...text.split('\n').map(escapeForTerminal));
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines;
}

/**
 * Says in one line on stderr what went wrong and returns the exit code (see {@link exitCodes}): a usage error (ours or
 * commander's, which commander has already printed) is 2; a user error — unusable input, a broken plugin, a strategy
 * that failed — is 1; anything else is a bug in ctx: 1, with a hint to run with `--debug`. With `debug`, the stack of
 * the error and of its causes follows the line. Never prints a raw stack otherwise.
 *
 * @param error - What `runCli` caught.
 * @param options - `io`: where to write; `debug`: print stacks (`--debug` or `CTX_DEBUG=1`).
 * @returns The exit code.
 */
export function reportCliError(error: unknown, options: { readonly io: CliIo; readonly debug: boolean }): number {
  const { io, debug } = options;
  if (error instanceof CommanderError) {
    // Help and version exit with 0; usage errors were already printed by commander.
    return error.exitCode === 0 ? exitCodes.success : exitCodes.usage;
  }
  const userError = CtxError.isInstance(error) || error instanceof TranscriptLoadError || isSystemError(error);
  if (userError) {
    io.stderr(oneLine(`ctx: ${error.message}`));
  } else {
    const description = error instanceof Error ? `${error.name}: ${error.message}` : describeThrown(error);
    io.stderr(oneLine(`ctx: unexpected error (a bug in ctx): ${description}`));
    if (!debug) io.stderr('ctx: run again with --debug for the stack trace');
  }
  if (debug) for (const line of stackLines(error)) io.stderr(line);
  return UsageError.isInstance(error) ? exitCodes.usage : exitCodes.failure;
}

/**
 * Whether the user asked for stack traces: `--debug` anywhere before a `--` (so it works before or after the command
 * name, and even when the command line fails to parse), or the environment variable `CTX_DEBUG` set to anything but
 * an empty string or `0`.
 */
export function isDebugRequested(argv: readonly string[], environment: NodeJS.ProcessEnv = process.env): boolean {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  const variable = environment.CTX_DEBUG;
  return options.includes('--debug') || (variable !== undefined && variable !== '' && variable !== '0');
}
