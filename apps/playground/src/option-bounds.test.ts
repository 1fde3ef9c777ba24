import { describe, expect, it } from 'vitest';
import { demoTranscriptPath } from './demo-transcript.js';
import { ctx } from './test-support/run-ctx.js';

describe('numeric options have bounds (issue 14)', () => {
  it('should refuse --runs 1e9 at once instead of running until killed', async () => {
    const { code, stderr } = await ctx('compare', demoTranscriptPath, '--runs', '1e9');
    expect(code).toBe(2);
    expect(stderr).toBe('ctx: --runs expects a whole number from 1 to 100, got 1e9');
  });

  it('should refuse a window or budget beyond any model', async () => {
    const window = await ctx('compare', demoTranscriptPath, '--runs', '1', '--window', '1e12');
    expect(window.code).toBe(2);
    expect(window.stderr).toBe('ctx: --window expects a whole number of tokens from 1 to 100,000,000, got 1e12');
    const budget = await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--budget', '1e12');
    expect(budget.code).toBe(2);
    expect(budget.stderr).toMatch(/--budget expects a whole number of tokens from 0 to 100,000,000/);
  });

  // Every numeric option of every command: compare and compress share --window, --budget and --threshold; compare
  // has --runs. inspect, strategies, conformance, stress and settings take no number.
  const bounds = {
    '--window': 'a whole number of tokens from 1 to 100,000,000',
    '--budget': 'a whole number of tokens from 0 to 100,000,000',
    '--threshold': 'a fraction in (0, 1]',
    '--runs': 'a whole number from 1 to 100',
  } as const;
  const refused: [keyof typeof bounds, string][] = [
    ...(['--window', '--budget', '--threshold', '--runs'] as const).flatMap((option) =>
      ['NaN', 'Infinity', '-Infinity', '-1', '', 'ten', '0x10', '1e400'].map((value): [keyof typeof bounds, string] => [option, value]),
    ),
    ['--window', '0'],
    ['--window', '2.5'],
    ['--budget', '0.5'],
    ['--budget', '100000001'],
    ['--threshold', '0'],
    ['--threshold', '1.01'],
    ['--runs', '0'],
    ['--runs', '2.5'],
    ['--runs', '101'],
  ];

  it.each(refused)('should refuse %s %j as a usage error (exit 2) before reading anything', async (option, value) => {
    const { code, stderr } = await ctx('compare', '/nowhere/session.json', option, value);
    expect(code).toBe(2);
    expect(stderr).toBe(`ctx: ${option} expects ${bounds[option]}, got ${value.trim() === '' ? JSON.stringify(value) : value}`);
  });

  it('should accept whole numbers written with an exponent, and the ends of each range', async () => {
    const { code, stdout } = await ctx(
      'compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--window', '5e4', '--budget', '2E4', '--threshold', '1', '--json',
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ window: 50_000, budget: 20_000 });
    expect((await ctx('compare', demoTranscriptPath, '--strategies', 'truncation', '--runs', '100', '--window', '100000000', '--json')).code).toBe(0);
  });
});

describe('degenerate options say what is wrong (issue 14)', () => {
  it('should refuse --strategies "" instead of running nothing and reporting success', async () => {
    const { code, stderr } = await ctx('compare', demoTranscriptPath, '--runs', '1', '--strategies', '');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^ctx: --strategies expects one or more strategy names, got ""; known: .*top-down-truncation/);
  });

  it('should print its version with --version and exit 0', async () => {
    const { code, stdout } = await ctx('--version');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
