import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { ctx } from './test-support/run-ctx.js';
import { demoTranscriptPath } from './demo-transcript.js';


async function tempFile(name: string, content: string) {
  const directory = await mkdtemp(join(tmpdir(), 'ctx-cli-'));
  const path = join(directory, name);
  await writeFile(path, content);
  return path;
}

describe('ctx compare', () => {
  it('should compress the built-in demo with every installed strategy and print a before/after report', async () => {
    // Without a path, compare takes the user's recent Claude Code sessions: point it at an empty config directory so
    // this test sees the demo on a developer's machine too.
    const previousConfigDirectory = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = await mkdtemp(join(tmpdir(), 'ctx-no-claude-'));
    const { code, stdout, stderr } = await ctx('compare', '--runs', '1').finally(() => {
      if (previousConfigDirectory === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = previousConfigDirectory;
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Transcript: built-in demo \(.*demo-session\.json\)/);
    expect(stdout).toMatch(/top-down-truncation\s+applied\s+[\d,]+ → [\d,]+\s.*\s\d+\.\d%/);
    expect(stdout).toMatch(/Compression \(top-down-truncation\): [\d,]+ → [\d,]+ tokens/);
    expect(stdout).toMatch(/warning \(lossy\): dropped the \d+ oldest entries/);
  });

  it('should reduce the demo to the target with every truncating strategy when its window is the transcript size', async () => {
    const { stdout } = await ctx('compare', '--json', '--runs', '1', '--strategies', 'truncation,sliding-window,top-down-truncation', demoTranscriptPath);
    const { results } = JSON.parse(stdout) as { results: { strategy: string; tokensBefore: number; tokensAfter: number; validAnthropic: boolean }[] };
    expect(results.map((result) => result.strategy)).toEqual(['truncation', 'sliding-window', 'top-down-truncation']);
    for (const result of results) {
      expect(result.validAnthropic, result.strategy).toBe(true);
      // Target: 0.85 × window × 0.6 of the whole request.
      expect(result.tokensAfter, result.strategy).toBeLessThanOrEqual(Math.floor(result.tokensBefore * 0.85 * 0.6));
    }
  });

  it('should leave a transcript that fits a larger window to the continuous strategies alone', async () => {
    const listed = JSON.parse((await ctx('strategies', '--json')).stdout) as { strategies: { name: string; trigger: { mode: string } }[] };
    const { code, stdout } = await ctx('compare', demoTranscriptPath, '--json', '--runs', '1', '--window', '200000');
    expect(code).toBe(0);
    const { results } = JSON.parse(stdout) as { results: { strategy: string; outcome: string; detail?: string; reduction: number }[] };
    expect(results).toHaveLength(listed.strategies.length);
    for (const strategy of listed.strategies) {
      const result = results.find((candidate) => candidate.strategy === strategy.name);
      // Threshold strategies wait for the threshold; continuous ones optimize every turn whatever the window.
      if (strategy.trigger.mode === 'threshold') {
        expect(result, strategy.name).toMatchObject({ outcome: 'no-op', detail: 'under-threshold', reduction: 0 });
      } else {
        expect(result?.outcome, strategy.name).not.toBe('failed');
      }
    }
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
    expect(stdout).toContain(`Transcript: ${file} (ctx)`);
    expect(stdout).toMatch(/top-down-truncation\s+applied/);
    const json = await ctx('compare', file, '--runs', '1', '--json');
    expect((JSON.parse(json.stdout) as { results: { entriesBefore: number; entriesAfter: number }[] }).results[0]).toMatchObject({ entriesBefore: 4 });
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

  it('should reject bad arguments with one line and the usage exit code 2', async () => {
    expect(await ctx('compare', '--window', 'lots')).toMatchObject({
      code: 2,
      stderr: 'ctx: --window expects a whole number of tokens from 1 to 100,000,000, got lots',
    });
    const threshold = await ctx('compare', '--threshold', '1.5');
    expect(threshold).toMatchObject({ code: 2, stderr: 'ctx: --threshold expects a fraction in (0, 1], got 1.5' });
    const unknown = await ctx('compare', '--strategies', 'magic');
    expect(unknown).toMatchObject({
      code: 2,
      stderr:
        'ctx: unknown strategy "magic"; known strategies: lossless, high-density, watermark, truncation, sliding-window, smart-passes, top-down-truncation, middle-out, one-shot, native',
    });
    expect(await ctx('frobnicate')).toMatchObject({ code: 2, stderr: "ctx: unknown command 'frobnicate'" });
    expect(await ctx('compare', '--frobnicate')).toMatchObject({ code: 2, stderr: "ctx: unknown option '--frobnicate'" });
    expect(await ctx('compress', demoTranscriptPath)).toMatchObject({
      code: 2,
      stderr: 'ctx: compress needs --strategy <names> or --preset <name> (see ctx strategies, ctx presets)',
    });
    expect((await ctx('compare', '--set', 'no-equals-sign')).code).toBe(2);
  });
});

describe('ctx strategies / settings / conformance', () => {
  it('should list the installed strategies', async () => {
    const { code, stdout } = await ctx('strategies', '--json');
    expect(code).toBe(0);
    const { strategies } = JSON.parse(stdout) as { strategies: { name: string; packageName: string }[] };
    expect(strategies.map((strategy) => `${strategy.name} ${strategy.packageName}`)).toEqual([
      'lossless @ctx/strategy-lossless',
      'high-density @ctx/strategy-high-density',
      'watermark @ctx/strategy-watermark',
      'truncation @ctx/strategy-truncation',
      'sliding-window @ctx/strategy-sliding-window',
      'smart-passes @ctx/strategy-smart-passes',
      'top-down-truncation @ctx/strategy-top-down-truncation',
      'middle-out @ctx/strategy-middle-out',
      'one-shot @ctx/strategy-one-shot',
      'native @ctx/strategy-native',
    ]);
    for (const name of ['middle-out', 'one-shot', 'native']) {
      expect(strategies).toContainEqual(expect.objectContaining({ name, requiresLLM: true, trigger: { mode: 'threshold', defaultThreshold: 0.85 } }));
    }
    expect(strategies).toContainEqual(
      expect.objectContaining({
        name: 'top-down-truncation',
        trigger: { mode: 'threshold', defaultThreshold: 0.85 },
        settings: { minEntriesKept: 2, keepFirstUserMessage: true, cutOversizedToolResults: true },
      }),
    );
    expect(strategies).toContainEqual(
      expect.objectContaining({ name: 'high-density', trigger: expect.objectContaining({ mode: 'continuous' }) as unknown }),
    );
  });

  it('should list the compression settings with their defaults', async () => {
    const { stdout } = await ctx('settings');
    expect(stdout).toMatch(/compression\.density\.recencyRetention\s+3\s+Results kept per tool/);
  });

  it('should run the conformance kit on every installed strategy and pass', async () => {
    const { code, stdout } = await ctx('conformance');
    for (const name of ['lossless', 'high-density', 'watermark', 'truncation', 'sliding-window', 'top-down-truncation']) {
      expect(stdout).toMatch(new RegExp(`Conformance of "${name}": passed`));
    }
    expect(code).toBe(0);
  });

  it('should print help with exit code 0, and the exit codes and --debug at its end', async () => {
    const { code, stdout } = await ctx('--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/compare \[options\] \[paths\.\.\.\]/);
    expect(stdout).toMatch(/--debug +print the stack trace of an error/);
    const exitCodes = stdout.slice(stdout.indexOf('Exit codes:'));
    for (const line of ['  0  success', '  1  a check failed', '  2  usage error']) expect(exitCodes).toContain(line);
    expect(Math.max(...exitCodes.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });

  it('should list the strategies in lines that fit an 80-column terminal, or the terminal it prints to', async () => {
    const plain = await ctx('strategies');
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^lossless — @ctx\/strategy-lossless\n {2}trigger continuous @ 0\.85 · LLM no\n/);
    expect(plain.stdout).toContain(['  settings:', '    minEntriesKept=2', '    keepFirstUserMessage=true', '    cutOversizedToolResults=true'].join('\n'));
    expect(plain.stdout).toMatch(/^one-shot — @ctx\/strategy-one-shot\n {2}trigger threshold @ 0\.85 · LLM yes$/m);
    expect(Math.max(...plain.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
    const narrow: string[] = [];
    expect(await runCli(['strategies'], { stdout: (text) => narrow.push(text), stderr: () => undefined, columns: 50 })).toBe(0);
    const lines = narrow.join('\n').split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(50);
    expect(Math.max(...lines.map((line) => line.length))).toBeGreaterThan(40);
  });

  it('should say which conformance checks were skipped and why, in text and JSON', async () => {
    const text = await ctx('conformance', '--strategies', 'high-density');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Conformance of "high-density": passed\n {2}\d+ passed, 0 failed, (\d+) skipped/);
    expect(text.stdout).toMatch(/\n {2}- skipped expand-restores: the strategy neither declares lossless nor implements expand\(\) \(on \d+ fixtures\)/);
    const json = await ctx('conformance', '--strategies', 'high-density', '--json');
    const [report] = (JSON.parse(json.stdout) as { reports: { counts: { skipped: number }; skipped: { checkId: string; reason: string; fixtures: string[] }[] }[] }).reports;
    expect(report?.skipped).toContainEqual(
      expect.objectContaining({ checkId: 'expand-restores', reason: 'the strategy neither declares lossless nor implements expand()' }),
    );
    expect(report?.skipped.reduce((sum, check) => sum + Math.max(1, check.fixtures.length), 0)).toBe(report?.counts.skipped);
  });
});

describe('--debug (issue 14)', () => {
  const missing = ['compress', '/nowhere/session.json', '--strategy', 'truncation'];

  it('should print one line and no stack trace without --debug', async () => {
    expect(await ctx(...missing)).toMatchObject({ code: 1, stderr: 'ctx: /nowhere/session.json: no such file or directory' });
  });

  it('should add the stack trace with --debug before or after the command, or with CTX_DEBUG=1', async () => {
    for (const argv of [['--debug', ...missing], [...missing, '--debug']]) {
      const { code, stderr } = await ctx(...argv);
      expect(code, argv.join(' ')).toBe(1);
      expect(stderr, argv.join(' ')).toMatch(/^ctx: \/nowhere\/session\.json: no such file or directory\n\w*Error: .*\n\s+at /);
    }
    process.env.CTX_DEBUG = '1';
    const fromEnvironment = await ctx(...missing).finally(() => {
      delete process.env.CTX_DEBUG;
    });
    expect(fromEnvironment.stderr).toMatch(/\n\s+at /);
  });
});
