import { InvalidFormatError, type DecodeResult } from '@ctx/core';
import { claudeCodeFormat, parseClaudeCodeSession, type ClaudeCodeReadOptions } from './claude-code-session-reader.js';
import { convertClaudeCodeSession, type ConvertClaudeCodeSessionOptions } from './convert-claude-code-session.js';

/**
 * Reads a Claude Code session file's text and converts it in one call: `parseClaudeCodeSession` then
 * `convertClaudeCodeSession`. Shaped like a codec's `decode(input: unknown)`, for loaders that take any input.
 *
 * @param input - The file's text.
 * @param options - The view and branch to convert; `strict` makes malformed lines an error.
 * @returns The conversation and every warning.
 * @throws `InvalidFormatError` (from `@ctx/core`) when `input` is not a string or no line of it is a Claude Code
 *   record, or with `strict` when any line is malformed.
 * @example
 * ```ts
 * const { conversation, warnings } = decodeClaudeCodeSession(await readFile(path, 'utf8'), { view: 'last-epoch' });
 * ```
 */
export function decodeClaudeCodeSession(
  input: unknown,
  options: ConvertClaudeCodeSessionOptions & ClaudeCodeReadOptions = {},
): DecodeResult {
  if (typeof input !== 'string') {
    throw new InvalidFormatError({
      format: claudeCodeFormat,
      issues: [{ path: '', message: `Expected the text of a JSON Lines file, received ${input === null ? 'null' : typeof input}` }],
    });
  }
  return convertClaudeCodeSession(parseClaudeCodeSession(input, { strict: options.strict ?? false }), options);
}
