import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusExists, corpusPath, readCorpusText } from '@ctx/format-utils/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseClaudeCodeSession } from '../claude-code-session-reader.js';
import { assistant, jsonl, text, user } from '../test-support/records.js';
import { readClaudeCodeSession } from './read-claude-code-session.js';

describe('readClaudeCodeSession', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ctx-claude-code-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('should stream a file with Windows line breaks and a malformed line into the same session as the text parser', async () => {
    const content = `${jsonl([user('u1', null, 'Hi'), assistant('a1', 'u1', 'msg_1', text('Hello'))]).replaceAll('\n', '\r\n')}{oops\r\n`;
    const path = join(directory, 'session.jsonl');
    await writeFile(path, content);
    const session = await readClaudeCodeSession(path);
    expect(session.records.map((record) => record.uuid)).toEqual(['u1', 'a1']);
    expect(session.warnings).toEqual([expect.objectContaining({ type: 'malformed', line: 3 })]);
    expect(session.records).toEqual(parseClaudeCodeSession(content).records);
  });

  it('should reject with the file system error for a missing file', async () => {
    await expect(readClaudeCodeSession(join(directory, 'missing.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.skipIf(!corpusExists)('should read a real session file exactly as parseClaudeCodeSession reads its text', async () => {
    const file = 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl';
    const streamed = await readClaudeCodeSession(corpusPath(file));
    const parsed = parseClaudeCodeSession(readCorpusText(file));
    expect(streamed.statistics).toEqual(parsed.statistics);
    expect(streamed.mainPath).toEqual(parsed.mainPath);
  });
});
