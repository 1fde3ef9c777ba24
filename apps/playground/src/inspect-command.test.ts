import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBrokenClaudeCodeSession } from './test-support/broken-claude-code-session.js';
import { ctx } from './test-support/run-ctx.js';
import { findCorpusDirectory } from './corpus.js';


describe('ctx inspect', () => {
  it('should need a path and say so in one line', async () => {
    expect((await ctx('inspect')).code).toBe(2);
    expect(await ctx('inspect', '/nowhere')).toMatchObject({ code: 1, stderr: 'ctx: /nowhere: no such file or directory' });
  });
});

const createdDirectories: string[] = [];
const temporaryDirectory = async () => {
  const directory = await mkdtemp(join(tmpdir(), 'ctx-inspect-'));
  createdDirectories.push(directory);
  return directory;
};
afterEach(async () => {
  await Promise.all(createdDirectories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

describe('ctx inspect warnings', () => {
  it('should list every malformed line with its number in the file\'s section, uncapped, and exit 0', async () => {
    const { path } = await writeBrokenClaudeCodeSession(await temporaryDirectory(), 25);
    const { code, stdout } = await ctx('inspect', path);
    expect(code).toBe(0);
    expect(stdout).toContain('malformed lines 25');
    expect(stdout).toContain('  ⚠ 25 malformed lines skipped\n    line 3: ');
    expect(stdout).toMatch(/^ {4}line 27: /m);
    expect(stdout).not.toContain('more (--json lists all)');
  });

  it('should give every file its warnings with line numbers in --json', async () => {
    const { path, brokenLines } = await writeBrokenClaudeCodeSession(await temporaryDirectory());
    const { stdout } = await ctx('inspect', path, '--json');
    const [file] = (JSON.parse(stdout) as { files: { warnings: { type: string; line: number | null }[]; warningCounts: Record<string, number> }[] }).files;
    expect(file?.warnings.filter((warning) => warning.type === 'malformed').map((warning) => warning.line)).toEqual(brokenLines);
    expect(file?.warningCounts.malformed).toBe(2);
  });

  it('should still describe the file with --strict but exit 1 with one line naming the first malformed line', async () => {
    const { path } = await writeBrokenClaudeCodeSession(await temporaryDirectory());
    const { code, stdout, stderr } = await ctx('inspect', path, '--strict');
    expect(code).toBe(1);
    expect(stdout).toContain('malformed lines 2');
    expect(stderr).toBe(`ctx: ${path}: expected no malformed lines with --strict, found 2 malformed lines (first at line 3); repair the file or run without --strict`);
  });

  it('should print counts of a large transcript with thousands separators', async () => {
    const history = Array.from({ length: 2400 }, (_, index) => ({ speaker: index % 2 === 0 ? 'human' : 'ai', blocks: [{ type: 'text', text: `message ${index}` }] }));
    const path = join(await temporaryDirectory(), 'large.json');
    await writeFile(path, JSON.stringify({ format: 'ctx.conversation.v1', history }));
    const { stdout } = await ctx('inspect', path);
    expect(stdout).toMatch(/^ {2}entries 2,400 \(human 1,200, ai 1,200, tool 0\) · \d{1,3},\d{3} request tokens = \d{1,3},\d{3} history \+ 0 system and tools/m);
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
