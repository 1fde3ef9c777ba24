import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createClaudeCodeSessionReader, type ClaudeCodeReadOptions } from '../claude-code-session-reader.js';
import type { ClaudeCodeSession } from '../claude-code-session.js';

/**
 * Reads a Claude Code session file from disk, streaming it line by line (`node:readline`), so the file's text is
 * never held whole. Node only: import it from `@ctx/format-claude-code/node`.
 *
 * @param path - A session file (`~/.claude/projects/<project>/<session>.jsonl`) or a subagent file
 *   (`<session>/subagents/agent-*.jsonl`).
 * @param options - `strict`: malformed lines are an error instead of warnings.
 * @returns The parsed session.
 * @throws The file system error when the file cannot be read (e.g. `ENOENT`); `InvalidFormatError` (from
 *   `@ctx/core`) when no line of it is a Claude Code record, or with `strict` when any line is malformed.
 * @example
 * ```ts
 * import { readClaudeCodeSession } from '@ctx/format-claude-code/node';
 * const session = await readClaudeCodeSession(`${homedir()}/.claude/projects/-home-me-app/5c03….jsonl`);
 * ```
 */
export async function readClaudeCodeSession(path: string, options: ClaudeCodeReadOptions = {}): Promise<ClaudeCodeSession> {
  const reader = createClaudeCodeSessionReader(options);
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) reader.addLine(line);
  return reader.finish();
}
