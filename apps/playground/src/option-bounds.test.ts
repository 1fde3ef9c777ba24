import { describe, expect, it } from 'vitest';
import { demoTranscriptPath } from './demo-transcript.js';
import { ctx } from './test-support/run-ctx.js';

describe('numeric options have bounds (issue 14)', () => {
  it('should refuse --runs 1e9 at once instead of running until killed', async () => {
    const { code, stderr } = await ctx('compare', demoTranscriptPath, '--runs', '1e9');
    expect(code).toBe(1);
    expect(stderr).toBe('ctx: --runs expects a whole number from 1 to 100, got 1000000000');
  });

  it('should refuse a window or budget beyond any model', async () => {
    const window = await ctx('compare', demoTranscriptPath, '--runs', '1', '--window', '1e12');
    expect(window.code).toBe(1);
    expect(window.stderr).toMatch(/--window expects a whole number of tokens from 1 to 100,000,000, got 1000000000000/);
    const budget = await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--budget', '1e12');
    expect(budget.code).toBe(1);
    expect(budget.stderr).toMatch(/--budget expects a whole number of tokens from 0 to 100,000,000/);
  });
});

describe('degenerate options say what is wrong (issue 14)', () => {
  it('should refuse --strategies "" instead of running nothing and reporting success', async () => {
    const { code, stderr } = await ctx('compare', demoTranscriptPath, '--runs', '1', '--strategies', '');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^ctx: --strategies expects one or more strategy names, got ""; known: .*top-down-truncation/);
  });

  it('should print its version with --version and exit 0', async () => {
    const { code, stdout } = await ctx('--version');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
