import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Conversation } from '@ctx/core';
import { decodeClaudeCodeSession } from '@ctx/format-claude-code';
import { decodeOpenHandsJsonl, decodeTrajectory } from '@ctx/format-trajectories';

/** ctx's shared corpus of recorded transcripts: `CTX_CORPUS`, or `shared/corpus` beside the repository. */
export const corpusDirectory =
  process.env.CTX_CORPUS !== undefined && process.env.CTX_CORPUS !== ''
    ? process.env.CTX_CORPUS
    : fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

export const corpusExists = existsSync(join(corpusDirectory, 'manifest.json'));

/** One decoded corpus transcript. */
export interface CorpusConversation {
  /** Path relative to the corpus, plus `#n` for each session of a multi-session file. */
  readonly name: string;
  readonly format: 'claude-code' | 'trajectory';
  readonly conversation: Conversation;
}

function listFiles(directory: string): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((name) => {
      const path = join(directory, name);
      return statSync(path).isDirectory() ? listFiles(path) : [path];
    });
}

/**
 * A Claude Code session of the corpus, decoded with `@ctx/format-claude-code` in its `whole-session` view (every
 * epoch, compaction summaries marked as generated).
 */
export function readClaudeCodeSession(file: string): Conversation {
  return decodeClaudeCodeSession(readFileSync(join(corpusDirectory, file), 'utf8'), { view: 'whole-session' })
    .conversation;
}

/** Every transcript of the corpus, decoded with the project's codecs. */
export function loadCorpusConversations(): CorpusConversation[] {
  const conversations: CorpusConversation[] = [];
  for (const path of listFiles(corpusDirectory)) {
    const name = relative(corpusDirectory, path);
    if (name.startsWith('claude-code/') && name.endsWith('.jsonl')) {
      conversations.push({ name, format: 'claude-code', conversation: readClaudeCodeSession(name) });
    } else if (name.startsWith('openhands/') && name.endsWith('.jsonl')) {
      decodeOpenHandsJsonl(readFileSync(path, 'utf8')).sessions.forEach((session, index) => {
        conversations.push({ name: `${name}#${index + 1}`, format: 'trajectory', conversation: session.conversation });
      });
    } else if (/^(gemini-cli|openai-chat|swe-agent)\//.test(name) && /\.(json|traj)$/.test(name)) {
      const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
      conversations.push({ name, format: 'trajectory', conversation: decodeTrajectory(value).conversation });
    }
  }
  return conversations;
}

/** The corpus's long Claude Code sessions (main sessions over 1 MB): the reference set of spec 000's measurements. */
export function loadLongClaudeCodeSessions(): CorpusConversation[] {
  return loadCorpusConversations().filter(
    (item) =>
      item.format === 'claude-code' &&
      !item.name.includes('/subagents/') &&
      statSync(join(corpusDirectory, item.name)).size > 1_000_000,
  );
}
