import { describe, expect, it } from 'vitest';
import { ctx } from './test-support/run-ctx.js';

describe('ctx stress', () => {
  it('should print the matrix with the chain legend, totals and cannot-fit cells, and exit 0 when no cell fails', async () => {
    const { code, stdout } = await ctx('stress', '--scenarios', 'GiantOutput_5x,CompactionNoInfiniteLoop', '--chains', 'truncation,high-density>sliding-window');
    expect(code).toBe(0);
    expect(stdout).toMatch(/scenario +window +turns +ratio +usage +A +B/);
    expect(stdout).toMatch(/128k_GiantOutput_5x +128k +3 +1\.3 +yes +1c \d+% +1c \d+%/);
    expect(stdout).toContain('A = truncation');
    expect(stdout).toContain('B = high-density→sliding-window');
    expect(stdout).toMatch(/2 scenarios × 2 chains/);
    expect(stdout).toMatch(/overflows 0 \(\+0 blind\), loops 0/);
    expect(stdout).toMatch(/Cannot fit — overhead-too-large \(2 cells\)/);
  });

  it('should print JSON with the totals and one cell per scenario and chain, without the per-send reports', async () => {
    const { code, stdout } = await ctx('stress', '--json', '--scenarios', '8k_ToolBurst', '--chains', 'sliding-window,lossless>truncation');
    expect(code).toBe(0);
    const matrix = JSON.parse(stdout) as { cells: Record<string, unknown>[]; totals: Record<string, number>; chains: { name: string }[] };
    expect(matrix.chains.map((chain) => chain.name)).toEqual(['sliding-window', 'lossless→truncation']);
    expect(matrix.cells).toHaveLength(2);
    expect(matrix.cells[0]).toMatchObject({ scenario: 'TestStress_8k_ToolBurst', chain: 'sliding-window', overflows: [], loops: [], outcome: { type: 'ok' } });
    expect(matrix.cells[0]).not.toHaveProperty('sendLog');
    expect(matrix.totals).toMatchObject({ sessions: 2, failingCells: 0 });
  });

  it('should say which scenarios and strategies exist when a filter matches nothing, as a usage error', async () => {
    const scenarios = await ctx('stress', '--scenarios', 'nope');
    expect(scenarios.code).toBe(2);
    expect(scenarios.stderr).toMatch(/Expected --scenarios to match a scenario, got "nope"; known: TestStress_200k_NormalConversation/);
    const chains = await ctx('stress', '--chains', 'sliding-window>nope');
    expect(chains.code).toBe(2);
    expect(chains.stderr).toMatch(/Expected a built-in strategy name in a chain, got "nope"/);
  });
});
