import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusDirectory, corpusExists } from '@ctx/format-utils/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findClaudeCodeSessions } from './find-claude-code-sessions.js';

describe('findClaudeCodeSessions', () => {
  let root: string;
  beforeAll(async () => {
    // ~/.claude/projects layout: one directory per project, sessions in it, subagents beside each session.
    root = await mkdtemp(join(tmpdir(), 'ctx-projects-'));
    const project = join(root, '-home-me-app');
    await mkdir(join(project, 's1', 'subagents'), { recursive: true });
    await writeFile(join(project, 's1.jsonl'), '');
    await writeFile(join(project, 's2.jsonl'), '');
    await writeFile(join(project, 's1', 'subagents', 'agent-a1.jsonl'), '');
    await writeFile(join(project, 's1', 'subagents', 'notes.txt'), '');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('should list each session with its subagent files, and not list subagent files as sessions', async () => {
    const project = join(root, '-home-me-app');
    expect(await findClaudeCodeSessions(root)).toEqual([
      {
        path: join(project, 's1.jsonl'),
        sessionId: 's1',
        directory: project,
        subagents: [{ path: join(project, 's1', 'subagents', 'agent-a1.jsonl'), agentId: 'a1' }],
      },
      { path: join(project, 's2.jsonl'), sessionId: 's2', directory: project, subagents: [] },
    ]);
  });

  it('should return an empty list for a directory that does not exist', async () => {
    expect(await findClaudeCodeSessions(join(root, 'nope'))).toEqual([]);
  });

  it.skipIf(!corpusExists)('should find the corpus sessions and their subagents', async () => {
    const sessions = await findClaudeCodeSessions(join(corpusDirectory, 'claude-code'));
    expect(sessions).toHaveLength(10);
    expect(sessions.flatMap((session) => session.subagents)).toHaveLength(6);
    expect(sessions.find((session) => session.sessionId === '258c7280-ae70-4798-800f-63464d01a85d')?.subagents.map((agent) => agent.agentId)).toEqual([
      'a881341',
      'acompact-fffbd0',
    ]);
  });
});
