import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A Claude Code session written by {@link writeBrokenClaudeCodeSession}, and where its broken lines are. */
export interface BrokenClaudeCodeSession {
  readonly path: string;
  /** 1-based numbers of the lines that are not valid JSON records. */
  readonly brokenLines: readonly number[];
}

/**
 * Writes `session.jsonl` into the directory: two user prompts and two answers (long enough for every strategy to
 * have something to do), with `broken` lines that are not JSON in the middle — one of them holding an escape
 * sequence, which must never reach the terminal raw.
 *
 * @param directory - Where to write the file.
 * @param broken - How many broken lines to put after the first answer (default 2).
 */
export async function writeBrokenClaudeCodeSession(directory: string, broken = 2): Promise<BrokenClaudeCodeSession> {
  const records = [
    { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's1', message: { role: 'user', content: `please read ${'the file '.repeat(150)}` } },
    { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's1', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'ok '.repeat(300) }] } },
    { type: 'user', uuid: 'u2', parentUuid: 'a1', sessionId: 's1', message: { role: 'user', content: 'now fix the bug' } },
    { type: 'assistant', uuid: 'a2', parentUuid: 'u2', sessionId: 's1', message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'done' }] } },
  ].map((record) => JSON.stringify(record));
  const brokenText = Array.from({ length: broken }, (_, index) => (index === 0 ? '{"type":"user","uuid":"cut off' : `not json \u001b[31m ${index}`));
  const lines = [...records.slice(0, 2), ...brokenText, ...records.slice(2)];
  const path = join(directory, 'session.jsonl');
  await writeFile(path, `${lines.join('\n')}\n`);
  return { path, brokenLines: brokenText.map((_, index) => index + 3) };
}
