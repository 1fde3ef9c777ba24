import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BenchReport } from '../bench/bench-report.js';
import { findCorpusDirectory } from '../corpus.js';
import { demoTranscriptPath } from '../demo-transcript.js';
import { ctx } from '../test-support/run-ctx.js';

/** Issue 18's table: every figure `ctx bench` prints, with the goal printed beside it. */
const figuresWithGoals = [
  'replay ÷ one o200k tokenization pass — goal ≤ 1.2×',
  'per turn, tokenizer included, p50 — no goal',
  'per turn, tokenizer included, p99 — no goal',
  'per-turn overhead (tokenizer excluded), p50 — goal ≤ 1 ms',
  'per-turn overhead (tokenizer excluded), p99 — goal ≤ 10 ms',
  'AI SDK middleware per model call (tokenizer excluded), nothing compressed, p50 — goal ≤ 1 ms',
  'AI SDK middleware per model call (tokenizer excluded), nothing compressed, p99 — goal ≤ 10 ms',
  'characters tokenized ÷ characters in the session — goal 1.00',
  'optimize() on the largest session (S1) — goal ≤ 1 ms',
  'compress() on the largest session (S1), window its own size — goal ≤ 3 ms',
  'optimize() after one more turn, 600 ÷ 150 entries — goal ≤ 1.5× (flat)',
  '--strategy truncation` ÷ read + parse + tokenize once — goal ≤ 2×',
  'peak V8 heap in use during the replay — no goal',
];

const corpusVariable = process.env.CTX_CORPUS;
afterEach(() => {
  if (corpusVariable === undefined) delete process.env.CTX_CORPUS;
  else process.env.CTX_CORPUS = corpusVariable;
});

describe('ctx bench', () => {
  it('should print every figure beside its goal, mark each value, and list strategies that need a model as not measured', async () => {
    const { code, stdout, stderr } = await ctx('bench', '--quick', demoTranscriptPath, '--strategies', 'high-density,truncation,one-shot', '--presets', 'speed');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (const figure of figuresWithGoals) expect(stdout).toContain(figure);
    expect(stdout).toMatch(/^Measured: high-density, truncation, speed\.$/m);
    expect(stdout).toMatch(/^Not measured: one-shot \(needs a model/m);
    // Each value beside a goal carries a mark: ✓ when it meets the goal, ✗ when it misses it.
    expect(stdout).toMatch(/^high-density\s+\d+\.\d\d× [✓✗]/m);
    expect(stdout).toMatch(/^ctx compress\s+\d+\.\d\d× [✓✗]$/m);
    // The baseline replay (nothing compressed) is printed for reference, without a mark.
    expect(stdout).toMatch(/^baseline: nothing compressed\s+\d+\.\d\d×$/m);
  });

  it('should print how far each replay ratio moved between runs when replays are repeated', async () => {
    const { code, stdout } = await ctx('bench', '--quick', '--runs', '2', '--only', 'replay', demoTranscriptPath, '--strategies', 'top-down-truncation');
    expect(code).toBe(0);
    const replay = stdout.split('replay ÷ one o200k tokenization pass')[1]?.split('\n\n')[0] ?? '';
    expect(replay).toMatch(/^baseline: nothing compressed\s+\d+\.\d\d× ±\d+\.\d\d$/m);
    expect(replay).toMatch(/^top-down-truncation\s+\d+\.\d\d× ±\d+\.\d\d [✓✗]$/m);
  });

  it('should measure the built-in demo transcript, and say so, when there is no corpus and no path', async () => {
    process.env.CTX_CORPUS = join(demoTranscriptPath, 'no-corpus-here');
    const { code, stdout } = await ctx('bench', '--quick', '--only', 'replay', '--strategies', 'high-density');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ctx bench \(gpt-tokenizer:o200k_base\) on the built-in demo transcript: no corpus here/m);
    expect(stdout).toMatch(/^ {2}S1 {2}the built-in demo transcript: /m);
  });

  it('should measure only the parts --only names, and print only their figures', async () => {
    const { code, stdout, stderr } = await ctx('bench', '--quick', '--only', 'calls, turn', demoTranscriptPath, '--strategies', 'high-density');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Only these parts of the run \(--only\): calls, turn; the others' figures are left out\.$/m);
    expect(stdout).toContain('optimize() on the largest session (S1) — goal ≤ 1 ms');
    expect(stdout).toContain('optimize() after one more turn, 600 ÷ 150 entries — goal ≤ 1.5× (flat)');
    for (const figure of figuresWithGoals.filter((title) => !title.startsWith('optimize() ') && !title.startsWith('compress() '))) {
      expect(stdout).not.toContain(figure);
    }
  });

  it('should reject a bad --sessions, --runs or strategy name as a usage error before measuring anything', async () => {
    const sessions = await ctx('bench', '--sessions', '0', demoTranscriptPath);
    expect(sessions.code).toBe(2);
    expect(sessions.stderr).toBe('ctx: --sessions expects a whole number from 1 to 20, got 0');
    expect(sessions.stdout).toBe('');
    const runs = await ctx('bench', '--runs', 'many', demoTranscriptPath);
    expect(runs.code).toBe(2);
    expect(runs.stderr).toBe('ctx: --runs expects a whole number from 1 to 100, got many');
    const unknown = await ctx('bench', '--strategies', 'no-such-strategy', demoTranscriptPath);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^ctx: .*no-such-strategy/);
    const parts = await ctx('bench', '--only', 'replay,warm-up', demoTranscriptPath);
    expect(parts.code).toBe(2);
    expect(parts.stderr).toBe('ctx: --only expects parts of the run from replay, middleware, calls, turn, cold (comma-separated), got warm-up');
    expect(parts.stdout).toBe('');
  });
});

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping ctx bench corpus tests: ../shared/corpus not found (set CTX_CORPUS).');

describe.skipIf(corpus === undefined)('ctx bench on a corpus session', () => {
  it('should print the report as JSON with a positive value for every figure', async () => {
    const session = join(corpus as string, 'claude-code/spotter/tool_heavy.jsonl');
    const { code, stdout, stderr } = await ctx('bench', '--quick', '--json', session, '--strategies', 'high-density,truncation');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as BenchReport;
    expect(report.source).toBe('paths');
    expect(report.sessions).toEqual([expect.objectContaining({ key: 'S1', label: session, entries: expect.any(Number) as number })]);
    expect(report.sessions[0]?.characters).toBeGreaterThan(0);
    expect(report.measured).toEqual(['high-density', 'truncation']);
    expect(report.parts).toEqual(['replay', 'middleware', 'calls', 'turn', 'cold']);
    expect(report.figures.map((figure) => figure.id)).toEqual([
      'replay-vs-tokenization',
      'turn-p50',
      'turn-p99',
      'turn-overhead-p50',
      'turn-overhead-p99',
      'middleware-overhead-p50',
      'middleware-overhead-p99',
      'characters-tokenized',
      'optimize',
      'compress',
      'one-more-turn',
      'one-more-turn-growth',
      'cold-cli',
      'cold-processes',
      'peak-memory',
    ]);
    for (const figure of report.figures) {
      expect(report.parts, figure.id).toContain(figure.part);
      const measured = (cell: { readonly column: string }) => figure.referenceColumns?.includes(cell.column) !== true;
      const values = figure.rows.flatMap((row) => row.cells.filter(measured).map((cell) => cell.value)).filter((value) => value !== null);
      expect(values.length, figure.id).toBeGreaterThan(0);
      for (const value of values) expect(value, figure.id).toBeGreaterThan(0);
      // A figure with a goal says of each value whether it meets it (the baseline row and reference columns are held
      // to none).
      if (figure.goal !== null) {
        for (const row of figure.rows.filter((found) => found.reference !== true)) {
          for (const cell of row.cells) if (cell.value !== null) expect(cell.met, `${figure.id} ${cell.column}`).toEqual(measured(cell) ? expect.any(Boolean) : undefined);
        }
      }
    }
    // The fresh compress figure shows, beside it, what tokenizing the text the strategy wrote cost: a time of its own,
    // held to no goal. (It is timed in separate runs, so how it compares with the call's time depends on the machine's
    // load: no test asserts that.)
    const compress = report.figures.find((figure) => figure.id === 'compress');
    expect(compress?.referenceColumns).toEqual(['fresh: tokenizing what it wrote']);
    for (const row of compress?.rows ?? []) {
      const cell = row.cells.find((found) => found.column === 'fresh: tokenizing what it wrote');
      expect(Number.isFinite(cell?.value), row.name).toBe(true);
      expect(cell?.value, row.name).toBeGreaterThanOrEqual(0);
      expect(cell?.met, row.name).toBeUndefined();
    }
    expect(report.peakRssBytes).toBeGreaterThan(0);
    // Every per-session figure starts with the baseline row: a reference held to no goal, with a value per session.
    const replay = report.figures.find((figure) => figure.id === 'replay-vs-tokenization');
    expect(replay?.rows.map((row) => row.name)).toEqual(['baseline: nothing compressed', 'high-density', 'truncation']);
    expect(replay?.rows[0]).toEqual({ name: 'baseline: nothing compressed', reference: true, cells: [{ column: 'S1', value: expect.any(Number) as number }] });
  });
});
