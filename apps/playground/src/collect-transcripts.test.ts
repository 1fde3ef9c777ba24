import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoTranscriptPath } from './demo-transcript.js';
import { ctx } from './test-support/run-ctx.js';

const createdDirectories: string[] = [];
const previousConfigDirectory = process.env.CLAUDE_CONFIG_DIR;
afterEach(async () => {
  if (previousConfigDirectory === undefined) delete process.env.CLAUDE_CONFIG_DIR;
  else process.env.CLAUDE_CONFIG_DIR = previousConfigDirectory;
  await Promise.all(createdDirectories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

/** Raw bytes a terminal would act on: escapes, NUL, bell, and the replacement character invalid UTF-8 turns into. */
// eslint-disable-next-line no-control-regex -- the test looks for exactly these raw control characters.
const rawBytes = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffd]/;
const binaryGarbage = Buffer.from([0x1b, 0x5b, 0x32, 0x4a, 0x00, 0x07, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x9b, 0x31, 0x6d]);

/** The demo as the good file, beside binary garbage, invalid UTF-8, and a JSON file of no known format. */
async function mixedDirectory(): Promise<{ directory: string; good: string; bad: string[] }> {
  const directory = await mkdtemp(join(tmpdir(), 'ctx-mixed-'));
  createdDirectories.push(directory);
  const good = join(directory, 'good.json');
  await copyFile(demoTranscriptPath, good);
  const bad = [join(directory, 'binary.json'), join(directory, 'latin1.jsonl'), join(directory, 'unknown.json')];
  await writeFile(bad[0] as string, binaryGarbage);
  await writeFile(bad[1] as string, Buffer.concat([Buffer.from('{"type":"user","message":"caf'), Buffer.from([0xe9, 0xff]), Buffer.from('"}\n')]));
  await writeFile(bad[2] as string, '{"hello":"world"}');
  return { directory, good, bad };
}

function expectSkippedLines(stderr: string, bad: readonly string[]) {
  expect(stderr).not.toMatch(rawBytes);
  const lines = stderr.split('\n').filter((line) => line.startsWith('ctx: skipped '));
  expect(lines).toHaveLength(bad.length);
  for (const file of bad) expect(lines.filter((line) => line.startsWith(`ctx: skipped ${file}: `)), file).toHaveLength(1);
  expect(stderr).toMatch(/\d+ of \d+ files? could not be read; see above/);
}

describe('ctx compare and inspect on a directory with unreadable files (issue 14)', () => {
  it('compare should report each unreadable file in one escaped line, compare the rest, and exit 1', async () => {
    const { directory, good, bad } = await mixedDirectory();
    const { code, stdout, stderr } = await ctx('compare', directory, '--runs', '1', '--strategies', 'top-down-truncation');
    expect(code).toBe(1);
    expect(stdout).toContain(good);
    expect(stdout).toMatch(/top-down-truncation +applied/);
    expect(stdout).not.toMatch(rawBytes);
    expectSkippedLines(stderr, bad);
    expect(stderr).toMatch(/binary\.json: not UTF-8 text \(invalid byte 0x89 at offset 6\)/);
    expect(stderr).toMatch(/latin1\.jsonl: not UTF-8 text \(invalid byte 0xe9 at offset 29\)/);
    expect(stderr).toMatch(/unknown\.json: unknown format/);
  });

  it('compare --json should carry the skipped files with their reasons beside the results', async () => {
    const { directory, good, bad } = await mixedDirectory();
    const { code, stdout } = await ctx('compare', directory, '--json', '--runs', '1', '--strategies', 'top-down-truncation');
    expect(code).toBe(1);
    const result = JSON.parse(stdout) as { results: { file: string }[]; skipped: { file: string; reason: string }[] };
    expect(result.results.map((row) => row.file)).toEqual([good]);
    expect(result.skipped.map((skipped) => skipped.file)).toEqual(bad);
    for (const skipped of result.skipped) expect(skipped.reason).not.toMatch(rawBytes);
  });

  it('inspect should describe the readable files, report the others in one escaped line each, and exit 1', async () => {
    const { directory, good, bad } = await mixedDirectory();
    const text = await ctx('inspect', directory);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`${good} — ctx`);
    expect(text.stdout).not.toMatch(rawBytes);
    expectSkippedLines(text.stderr, bad);
    const json = await ctx('inspect', directory, '--json');
    expect(json.code).toBe(1);
    const result = JSON.parse(json.stdout) as { files: { file: string }[]; skipped: { file: string; reason: string }[] };
    expect(result.files.map((file) => file.file)).toEqual([good]);
    expect(result.skipped.map((skipped) => skipped.file)).toEqual(bad);
  });

  it('should skip an unreadable session in the default ~/.claude/projects mode and compare the rest', async () => {
    const configDirectory = await mkdtemp(join(tmpdir(), 'ctx-claude-'));
    createdDirectories.push(configDirectory);
    const project = join(configDirectory, 'projects', '-home-dev-app');
    await mkdir(project, { recursive: true });
    const records = [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's1', message: { role: 'user', content: 'read a.ts' } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's1', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'done' }] } },
    ];
    await writeFile(join(project, 'good.jsonl'), records.map((record) => JSON.stringify(record)).join('\n'));
    await writeFile(join(project, 'broken.jsonl'), binaryGarbage);
    process.env.CLAUDE_CONFIG_DIR = configDirectory;
    const { code, stdout, stderr } = await ctx('compare', '--json', '--runs', '1', '--strategies', 'top-down-truncation');
    expect(code).toBe(1);
    const result = JSON.parse(stdout) as { results: { file: string }[]; skipped: { file: string }[] };
    expect(result.results.map((row) => row.file)).toEqual([join(project, 'good.jsonl')]);
    expect(result.skipped.map((skipped) => skipped.file)).toEqual([join(project, 'broken.jsonl')]);
    expectSkippedLines(stderr, [join(project, 'broken.jsonl')]);
  });

  it('should still refuse a single named unreadable file: exit 1, one escaped line, no output', async () => {
    const { bad } = await mixedDirectory();
    for (const command of ['compare', 'inspect', 'compress']) {
      const { code, stdout, stderr } = await ctx(command, bad[0] as string, ...(command === 'compress' ? ['--strategy', 'top-down-truncation'] : []));
      expect(code, command).toBe(1);
      expect(stdout, command).toBe('');
      expect(stderr, command).toBe(`ctx: ${bad[0] as string}: not UTF-8 text (invalid byte 0x89 at offset 6); expected a JSON or JSON Lines transcript`);
    }
  });

  it('should escape control characters that reach an error line', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ctx-control-'));
    createdDirectories.push(directory);
    const file = join(directory, 'control.json');
    await writeFile(file, '\u001b[2J\u0007{not json');
    const { code, stderr } = await ctx('inspect', file);
    expect(code).toBe(1);
    expect(stderr).not.toMatch(rawBytes);
    expect(stderr).toContain('\\x1b');
    expect(stderr.split('\n')).toHaveLength(1);
  });
});
