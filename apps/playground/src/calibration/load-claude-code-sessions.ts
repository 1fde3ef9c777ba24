import { relative } from 'node:path';
import type { Conversation } from '@ctx/core';
import { convertClaudeCodeSession } from '@ctx/format-claude-code';
import { findClaudeCodeSessions, readClaudeCodeSession } from '@ctx/format-claude-code/node';

/** One Claude Code conversation whose model calls can be measured. */
export interface LoadedClaudeCodeSession {
  /** Path relative to the directory searched; `#sidechain-n` for the n-th inline sidechain of a file. */
  readonly name: string;
  /**
   * A main session, or a subagent's conversation (its own system prompt, history and calls): a `subagents/*.jsonl`
   * file, or a sidechain written inline in the session file by older Claude Code versions.
   */
  readonly kind: 'session' | 'subagent';
  /** The `whole-session` view, so calls after a compaction can be told apart. */
  readonly conversation: Conversation;
}

/** Options of {@link loadClaudeCodeSessions}. */
export interface LoadClaudeCodeSessionsOptions {
  /**
   * Load only the first this many conversations (sessions and their subagents, in path order).
   * @default every one
   */
  readonly limit?: number;
}

/**
 * Claude Code files whose request the file does not hold: `agent-acompact-*` is Claude Code's own compaction call,
 * sent with the whole parent conversation that only the parent's file records.
 */
const compactionRequest = /^acompact/;

/**
 * Reads every Claude Code session under `directory` (laid out like `~/.claude/projects`) and its subagent
 * conversations (files and inline sidechains), except compaction requests, converted in the `whole-session` view.
 *
 * @param directory - Where to look, e.g. `../shared/corpus/claude-code`.
 * @param options - How many to load.
 * @returns The conversations, sessions first then each one's subagents, in path order; none when `directory` does
 *   not exist.
 */
export async function loadClaudeCodeSessions(
  directory: string,
  options: LoadClaudeCodeSessionsOptions = {},
): Promise<LoadedClaudeCodeSession[]> {
  const files = (await findClaudeCodeSessions(directory)).flatMap((session) => [
    { path: session.path, kind: 'session' as const },
    ...session.subagents
      .filter((subagent) => !compactionRequest.test(subagent.agentId))
      .map((subagent) => ({ path: subagent.path, kind: 'subagent' as const })),
  ]);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const sessions: LoadedClaudeCodeSession[] = [];
  for (const file of files) {
    if (sessions.length >= limit) break;
    const session = await readClaudeCodeSession(file.path);
    const name = relative(directory, file.path);
    sessions.push({ name, kind: file.kind, conversation: convertClaudeCodeSession(session, { view: 'whole-session' }).conversation });
    // A subagent file's records are all sidechain records: its main conversation is the subagent's.
    if (file.kind === 'subagent') continue;
    session.sidechains.forEach((sidechain, index) => {
      if (sessions.length >= limit) return;
      sessions.push({
        name: `${name}#sidechain-${index + 1}`,
        kind: 'subagent',
        conversation: convertClaudeCodeSession(session, { view: 'whole-session', leafUuid: sidechain.leafUuid }).conversation,
      });
    });
  }
  return sessions;
}
