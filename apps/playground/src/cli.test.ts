import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';

async function ctx(...argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(argv, { stdout: (text) => stdout.push(text), stderr: (text) => stderr.push(text) });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

async function tempFile(name: string, content: string) {
  const directory = await mkdtemp(join(tmpdir(), 'ctx-cli-'));
  const path = join(directory, name);
  await writeFile(path, content);
  return path;
}

describe('ctx compare', () => {
  it('should compress the built-in demo with every installed strategy and print a before/after report', async () => {
    const { code, stdout, stderr } = await ctx('compare', '--runs', '1');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Transcript: built-in demo \(.*demo-session\.json\)/);
    expect(stdout).toMatch(/top-down-truncation\s+applied\s+[\d,]+ → [\d,]+\s+\d+\.\d%/);
    expect(stdout).toMatch(/Compression \(top-down-truncation\): [\d,]+ → [\d,]+ tokens/);
    expect(stdout).toMatch(/warning \(lossy\): dropped the \d+ oldest entries/);
  });

  it('should print one JSON object per transcript with --json', async () => {
    const { code, stdout } = await ctx('compare', '--json', '--runs', '1', '--window', '200000');
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as { transcripts: { tokens: number; window: number; results: { strategy: string; outcome: string; pairValid: boolean; reduction: number }[] }[] };
    const [transcript] = parsed.transcripts;
    expect(transcript?.window).toBe(200_000);
    expect(transcript?.results).toEqual([
      expect.objectContaining({ strategy: 'top-down-truncation', outcome: 'no-op', pairValid: true, reduction: 0 }),
    ]);
  });

  it('should reduce the demo to the target when its window is the transcript size', async () => {
    const { stdout } = await ctx('compare', '--json', '--runs', '1');
    const [transcript] = (JSON.parse(stdout) as { transcripts: { tokens: number; results: { tokensAfter: number; pairValid: boolean }[] }[] }).transcripts;
    const result = transcript?.results[0];
    expect(result?.pairValid).toBe(true);
    // Target: 0.85 × window × 0.6 of the whole request.
    expect(result?.tokensAfter).toBeLessThanOrEqual(Math.floor((transcript?.tokens ?? 0) * 0.85 * 0.6));
  });

  it('should read a ctx.conversation.v1 file given on the command line', async () => {
    const file = await tempFile(
      'tiny.json',
      JSON.stringify({
        format: 'ctx.conversation.v1',
        history: [
          { speaker: 'human', blocks: [{ type: 'text', text: Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ') }] },
          { speaker: 'ai', blocks: [{ type: 'text', text: Array.from({ length: 100 }, (_, i) => `reply${i}`).join(' ') }] },
          { speaker: 'human', blocks: [{ type: 'text', text: 'again' }] },
          { speaker: 'ai', blocks: [{ type: 'text', text: 'sure' }] },
        ],
      }),
    );
    const { code, stdout } = await ctx('compare', file, '--runs', '1');
    expect(code).toBe(0);
    expect(stdout).toContain(`Transcript: ${file}`);
    expect(stdout).toMatch(/top-down-truncation\s+applied/);
    expect(stdout).toMatch(/\s4 → [1-3]\s/);
  });

  it('should give one clear line and exit 1 for a missing file, bad JSON or an invalid history', async () => {
    const missing = await ctx('compare', '/nonexistent/session.json');
    expect(missing).toMatchObject({ code: 1, stderr: 'ctx: /nonexistent/session.json: no such file or directory' });

    const badJson = await ctx('compare', await tempFile('bad.json', '{ not json'));
    expect(badJson.code).toBe(1);
    expect(badJson.stderr).toMatch(/^ctx: .*bad\.json: not valid JSON/);

    const invalid = await ctx(
      'compare',
      await tempFile('invalid.json', JSON.stringify({ format: 'ctx.conversation.v1', history: [{ speaker: 'bot', blocks: [] }] })),
    );
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^ctx: .*invalid\.json: history\[0\]\.speaker: /);
    expect(invalid.stderr.split('\n')).toHaveLength(1);

    const unknown = await ctx('compare', await tempFile('unknown.json', JSON.stringify({ hello: 'world' })));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^ctx: .*unknown\.json: unknown format; expected ctx\.conversation\.v1, a trajectory/);
  });

  it('should reject bad arguments with a usage error or one line', async () => {
    expect((await ctx('compare', '--window', 'lots')).code).toBe(2);
    const threshold = await ctx('compare', '--threshold', '1.5');
    expect(threshold).toMatchObject({ code: 1, stderr: 'ctx: --threshold expects a fraction in (0, 1], got 1.5' });
    const unknown = await ctx('compare', '--strategies', 'magic');
    expect(unknown).toMatchObject({ code: 1, stderr: 'ctx: unknown strategy "magic"; installed strategies: top-down-truncation' });
    expect((await ctx('frobnicate')).code).toBe(2);
  });
});

describe('ctx strategies / settings / conformance', () => {
  it('should list the installed strategies', async () => {
    const { code, stdout } = await ctx('strategies', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      strategies: [
        expect.objectContaining({
          name: 'top-down-truncation',
          packageName: '@ctx/strategy-top-down-truncation',
          trigger: { mode: 'threshold', defaultThreshold: 0.85 },
          settings: { minEntriesKept: 2 },
        }),
      ],
    });
  });

  it('should list the compression settings with their defaults', async () => {
    const { stdout } = await ctx('settings');
    expect(stdout).toMatch(/compression\.density\.recencyRetention\s+3\s+Results kept per tool/);
  });

  it('should run the conformance kit on every installed strategy and pass', async () => {
    const { code, stdout } = await ctx('conformance');
    expect(stdout).toMatch(/Conformance of "top-down-truncation": passed/);
    expect(code).toBe(0);
  });

  it('should print help with exit code 0', async () => {
    const { code, stdout } = await ctx('--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/compare \[options\] \[paths\.\.\.\]/);
  });
});
