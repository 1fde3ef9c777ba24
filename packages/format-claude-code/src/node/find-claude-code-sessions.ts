import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** A subagent transcript beside its session (`<session>/subagents/agent-<id>.jsonl`). */
export interface ClaudeCodeSubagentFile {
  readonly path: string;
  /** From the file name: `agent-a881341.jsonl` → `a881341`. */
  readonly agentId: string;
}

/** A session file and the subagent files that belong to it. */
export interface ClaudeCodeSessionFile {
  readonly path: string;
  /** The file name without `.jsonl` (Claude Code names session files by session id). */
  readonly sessionId: string;
  /** The directory holding it: one project in `~/.claude/projects`. */
  readonly directory: string;
  readonly subagents: readonly ClaudeCodeSubagentFile[];
}

async function listDirectory(directory: string) {
  try {
    return await readdir(directory, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function findSubagents(directory: string, sessionId: string): Promise<ClaudeCodeSubagentFile[]> {
  const subagentDirectory = join(directory, sessionId, 'subagents');
  const entries = await listDirectory(subagentDirectory);
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => ({
      path: join(subagentDirectory, entry.name),
      agentId: basename(entry.name, '.jsonl').replace(/^agent-/, ''),
    }))
    .sort((first, second) => first.path.localeCompare(second.path));
}

/**
 * Finds the Claude Code sessions under a directory laid out like `~/.claude/projects`: every `*.jsonl` file is a
 * session, and `<session>/subagents/*.jsonl` beside it are its subagent transcripts. Works on the projects
 * directory, one project directory, or any tree of them. Node only: import it from `@ctx/format-claude-code/node`.
 *
 * @param root - The directory to search, e.g. `join(homedir(), '.claude', 'projects')`.
 * @returns The sessions, sorted by path; an empty list when `root` does not exist.
 * @throws The file system error for an unreadable directory other than a missing one.
 * @example
 * ```ts
 * for (const file of await findClaudeCodeSessions(join(homedir(), '.claude', 'projects'))) {
 *   const session = await readClaudeCodeSession(file.path);
 * }
 * ```
 */
export async function findClaudeCodeSessions(root: string): Promise<ClaudeCodeSessionFile[]> {
  const sessions: ClaudeCodeSessionFile[] = [];
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await listDirectory(directory)) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        // Subagent transcripts are listed with their session, not as sessions of their own.
        if (entry.name !== 'subagents') await walk(path);
      } else if (entry.isFile() && entry.name.endsWith('.jsonl')) {
        const sessionId = basename(entry.name, '.jsonl');
        sessions.push({ path, sessionId, directory, subagents: await findSubagents(directory, sessionId) });
      }
    }
  };
  await walk(root);
  return sessions.sort((first, second) => first.path.localeCompare(second.path));
}
