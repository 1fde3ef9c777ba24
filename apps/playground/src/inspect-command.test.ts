import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctx } from './test-support/run-ctx.js';
import { findCorpusDirectory } from './corpus.js';


describe('ctx inspect', () => {
  it('should need a path and say so in one line', async () => {
    expect((await ctx('inspect')).code).toBe(2);
    expect(await ctx('inspect', '/nowhere')).toMatchObject({ code: 1, stderr: 'ctx: /nowhere: no such file or directory' });
  });
});

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping ctx inspect corpus tests: ../shared/corpus not found (set CTX_CORPUS).');

describe.skipIf(corpus === undefined)('ctx inspect on the recorded corpus', () => {
  it('should print one JSON object per transcript with the documented fields, and compaction statistics', async () => {
    const { code, stdout } = await ctx('inspect', corpus as string, '--json');
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as {
      files: Record<string, unknown>[];
      compactStatistics: { totalSessions: number; sessionsWithCompacts: number; totalCompacts: number };
    };
    // 25 manifest files; the OpenHands file holds 3 sessions.
    expect(result.files).toHaveLength(27);
    for (const file of result.files) {
      for (const field of ['file', 'format', 'entries', 'toolCalls', 'tokens', 'compactions', 'epochs', 'orphans', 'malformedLines']) {
        expect(file, String(file.file)).toHaveProperty(field);
      }
    }
    expect(result.compactStatistics).toEqual({ totalSessions: 10, sessionsWithCompacts: 4, totalCompacts: 4, maxCompactsPerSession: 1 });
  }, 120_000);

  it('should show a compacted session with its trigger and pre-compaction tokens, and reads and writes', async () => {
    const file = join(corpus as string, 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl');
    const { code, stdout } = await ctx('inspect', file, '--json');
    expect(code).toBe(0);
    const [inspection] = (JSON.parse(stdout) as { files: Record<string, unknown>[] }).files;
    expect(inspection).toMatchObject({
      format: 'claude-code',
      epochs: 2,
      compactions: 1,
      compactionDetails: [{ form: 'compact-boundary', trigger: 'auto', preTokens: 167_094 }],
      malformedLines: 0,
    });
    expect(inspection?.filesRead).toBeGreaterThan(10);
    expect(inspection?.filesWritten).toBeGreaterThan(10);
    const text = await ctx('inspect', file);
    expect(text.stdout).toMatch(/compactions 1 \(auto, 167,094 tokens before\)/);
  });

  it('should find reads and writes in every agent family', async () => {
    const { stdout } = await ctx('inspect', corpus as string, '--json');
    const files = (JSON.parse(stdout) as { files: { format: string; filesRead: number; filesWritten: number }[] }).files;
    for (const format of ['claude-code', 'mini-swe-agent', 'swe-agent', 'openhands', 'gemini-cli']) {
      const family = files.filter((file) => file.format === format);
      expect(family.reduce((sum, file) => sum + file.filesRead, 0), format).toBeGreaterThan(0);
      expect(family.reduce((sum, file) => sum + file.filesWritten, 0), format).toBeGreaterThan(0);
    }
  }, 120_000);
});
