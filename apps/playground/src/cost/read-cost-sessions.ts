import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { TokenCounter } from '@ctx/core';
import { convertClaudeCodeSession, type ClaudeCodeSession } from '@ctx/format-claude-code';
import { readClaudeCodeSession } from '@ctx/format-claude-code/node';
import { listRecordedModelCalls } from '../calibration/claude-code-model-calls.js';
import { CliError } from '../cli-io.js';
import { dedupeBilledModelCalls, readBilledModelCall, type BilledModelCall } from './billed-model-calls.js';
import type { CostSession } from './simulate-compressed-cost.js';

/** The named session files, read for `ctx cost`. */
export interface CostSessions {
  /** The files, in the order named (a directory's `.jsonl` files sorted, recursively). */
  readonly files: readonly string[];
  /** Every billed call of every file, each API call once. */
  readonly billedCalls: readonly BilledModelCall[];
  /** Usage records read before counting each call once. */
  readonly usageRecords: number;
  /** The sessions whose main conversation can be replayed (every file but Claude Code's own compaction requests). */
  readonly sessions: readonly CostSession[];
}

/**
 * Claude Code's own compaction call (`agent-acompact-*.jsonl`): billed, but its request is the parent conversation,
 * which only the parent's file records, so it is not replayed.
 */
const compactionRequest = /^agent-acompact/;

function listSessionFiles(path: string): string[] {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    throw new CliError(`Expected a Claude Code session file or a directory of them, found nothing at ${path}; check the path`, { cause: error });
  }
  if (!isDirectory) return [path];
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const child = join(directory, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.jsonl')) files.push(child);
    }
  };
  walk(path);
  if (files.length === 0) throw new CliError(`Expected Claude Code session files (*.jsonl) under ${path}, found none; name a session file or ~/.claude/projects/<project>`);
  return files;
}

/**
 * Reads Claude Code session files (and directories of them, subagent files included) for `ctx cost`: every usage
 * record of every file, counted once per API call across all of them; and for each file but compaction requests, the
 * `whole-session` conversation with its calls, to replay.
 *
 * @param paths - Files or directories, as named on the command line.
 * @param tokenCounter - Counts the entries of the calls (shared with the replay).
 * @returns The files, the billed calls and the sessions to replay.
 * @throws `CliError` naming the path when it does not exist or is not a Claude Code session.
 */
export async function readCostSessions(paths: readonly string[], tokenCounter: TokenCounter): Promise<CostSessions> {
  const files = [...new Set(paths.flatMap(listSessionFiles))];
  const read: { file: string; session: ClaudeCodeSession; calls: BilledModelCall[] }[] = [];
  for (const file of files) {
    let session: ClaudeCodeSession;
    try {
      session = await readClaudeCodeSession(file);
    } catch (error) {
      const lines = (error instanceof Error ? error.message : String(error)).split('\n').map((line) => line.trim()).filter(Boolean);
      // One line: the reader's first problems, not every malformed line of a large file.
      const problem = lines.length > 3 ? `${lines.slice(0, 3).join(' ')} …` : lines.join(' ');
      throw new CliError(`Expected a Claude Code session file (JSON Lines, as in ~/.claude/projects/<project>/), could not read ${file}: ${problem}`, { cause: error });
    }
    const calls = session.records.flatMap((record) => readBilledModelCall(record, file) ?? []);
    read.push({ file, session, calls });
  }
  const billedCalls = dedupeBilledModelCalls(read.flatMap(({ calls }) => calls));
  const sessions: CostSession[] = [];
  for (const { file, session } of read) {
    if (compactionRequest.test(basename(file))) continue;
    const billed = new Map<string, BilledModelCall>();
    for (const call of billedCalls) {
      if (call.source === file && call.messageId !== undefined && !billed.has(call.messageId)) billed.set(call.messageId, call);
    }
    const { conversation } = convertClaudeCodeSession(session, { view: 'whole-session' });
    const { calls } = listRecordedModelCalls(conversation, tokenCounter);
    sessions.push({ label: file, conversation, calls, billed });
  }
  return { files, billedCalls, usageRecords: read.reduce((sum, { calls }) => sum + calls.length, 0), sessions };
}
