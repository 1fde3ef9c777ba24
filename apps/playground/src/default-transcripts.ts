import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where Claude Code keeps session transcripts: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function claudeCodeProjectsDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  const configDirectory = environment.CLAUDE_CONFIG_DIR;
  return join(configDirectory !== undefined && configDirectory !== '' ? configDirectory : join(homedir(), '.claude'), 'projects');
}

/**
 * The most recently modified Claude Code session files (main sessions, not subagent files) under the projects
 * directory, newest first; empty when there are none.
 */
export function findRecentClaudeCodeSessions(directory: string, limit: number): string[] {
  if (!existsSync(directory)) return [];
  const sessions: { path: string; modified: number }[] = [];
  for (const project of readdirSync(directory, { withFileTypes: true })) {
    if (!project.isDirectory()) continue;
    const projectPath = join(directory, project.name);
    for (const file of readdirSync(projectPath, { withFileTypes: true })) {
      if (!file.isFile() || !file.name.endsWith('.jsonl')) continue;
      const path = join(projectPath, file.name);
      sessions.push({ path, modified: statSync(path).mtimeMs });
    }
  }
  return sessions
    .sort((a, b) => b.modified - a.modified)
    .slice(0, limit)
    .map((session) => session.path);
}
