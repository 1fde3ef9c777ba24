import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CostReport } from '../cost/cost-report.js';
import { findCorpusDirectory } from '../corpus.js';
import { ctx } from '../test-support/run-ctx.js';

const directory = mkdtempSync(join(tmpdir(), 'ctx-cost-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A two-call session: one call streamed as two records, the other by a model the price table does not have. */
function writeSession(): string {
  const record = (uuid: string, parentUuid: string | null, fields: object) =>
    JSON.stringify({ uuid, parentUuid, sessionId: 's1', version: '2.1.39', timestamp: '2026-02-12T10:00:00.000Z', isSidechain: false, ...fields });
  const assistant = (uuid: string, parentUuid: string, id: string, model: string, output: number) =>
    record(uuid, parentUuid, {
      type: 'assistant',
      requestId: `req_${id}`,
      message: { id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 3, output_tokens: output, cache_read_input_tokens: 1000, cache_creation_input_tokens: 200 } },
    });
  const lines = [
    record('u1', null, { type: 'user', message: { role: 'user', content: 'Fix the failing test in parser.ts please' } }),
    assistant('a1', 'u1', 'msg_1', 'claude-sonnet-4-5-20250929', 1),
    assistant('a2', 'a1', 'msg_1', 'claude-sonnet-4-5-20250929', 42),
    record('u2', 'a2', { type: 'user', message: { role: 'user', content: 'And now the docs' } }),
    assistant('a3', 'u2', 'msg_2', 'claude-future-9', 7),
  ];
  const path = join(directory, 'session.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('ctx cost', () => {
  it('should print per-model tokens and dollars, a model without a price as "no price", and strategies needing a model as such', async () => {
    const session = writeSession();
    const { code, stdout, stderr } = await ctx('cost', session, '--strategies', 'sliding-window,one-shot');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/claude-sonnet-4-5-20250929\s+1\s+3\s+200\s+0\s+1,000\s+42\s+\$0\.\d+/);
    expect(stdout).toMatch(/claude-future-9\s+1\s+.*no price/);
    expect(stdout).toMatch(/one-shot\s+needs a model/);
    expect(stdout).toMatch(/sliding-window\s+\$0\.\d+/);
  });

  it('should print the report as JSON with --json', async () => {
    const { code, stdout } = await ctx('cost', writeSession(), '--strategies', 'sliding-window', '--json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as CostReport;
    expect(report.recorded.total).toMatchObject({ calls: 2, outputTokens: 49, unpricedModels: ['claude-future-9'] });
    expect(report.usageRecords).toBe(3);
    expect(report.strategies.map((row) => [row.strategy, row.outcome])).toEqual([['sliding-window', 'simulated']]);
  });

  it('should fail in one line with exit 1 for a path that does not exist, and exit 2 for an unknown strategy', async () => {
    const missing = await ctx('cost', join(directory, 'nope.jsonl'));
    expect(missing.code).toBe(1);
    expect(missing.stderr.split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('nope.jsonl');
    const unknown = await ctx('cost', writeSession(), '--strategies', 'no-such-strategy');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')).toHaveLength(1);
  });

  it('should refuse a condensing model without a price in one line, exit 2, naming the known models', async () => {
    const { code, stdout, stderr } = await ctx('cost', writeSession(), '--strategies', 'native', '--condensing-models', 'claude-haiku-4-5,claude-hiaku-9');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^ctx: --condensing-models: no price for claude-hiaku-9; known: .*claude-haiku-4-5/);
    expect(stderr.split('\n')).toHaveLength(1);
  });

  it('should fail in one line with exit 1 for a file that is not a Claude Code session', async () => {
    const path = join(directory, 'messages.json');
    writeFileSync(path, JSON.stringify([{ role: 'user', content: 'hi' }]));
    const { code, stderr } = await ctx('cost', path);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^ctx: Expected a Claude Code session file/);
    expect(stderr.split('\n')).toHaveLength(1);
  });
});

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping the ctx cost corpus end-to-end test: ../shared/corpus not found (set CTX_CORPUS).');

describe.skipIf(corpus === undefined)('ctx cost on a recorded session', () => {
  it('should report the recorded cost and a saving or loss for each strategy asked for', async () => {
    const session = join(corpus ?? '', 'claude-code', 'claude-code-viewer', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
    const { code, stdout } = await ctx('cost', session, '--json', '--strategies', 'high-density,lossless', '--presets', 'coding-agent');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as CostReport;
    expect(report.recorded.models.map((sum) => sum.model)).toEqual(['claude-sonnet-4-20250514']);
    expect(report.recorded.total.usd).toBeGreaterThan(0);
    expect(report.simulation).toMatchObject({ window: 200_000 });
    expect(report.simulation.replayedCalls).toBeGreaterThan(0);
    expect(report.strategies.map((row) => row.strategy)).toEqual(['high-density', 'lossless', 'coding-agent']);
    for (const row of report.strategies.filter((strategy) => strategy.outcome === 'simulated')) {
      expect(row.savedUsd).toBeCloseTo(report.recorded.total.usd - (row.cost?.total.usd ?? 0), 9);
    }
  });

  it('should compress into the --window given, rewriting requests already sent once the session outgrows it', async () => {
    const session = join(corpus ?? '', 'claude-code', 'claude-code-viewer', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
    const { code, stdout } = await ctx('cost', session, '--json', '--strategies', 'sliding-window', '--window', '26000');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as CostReport;
    expect(report.simulation.window).toBe(26_000);
    const [row] = report.strategies;
    expect(row?.outcome).toBe('simulated');
    expect(row?.rewrites).toBeGreaterThan(0);
    expect(row?.cost?.total.cacheReadTokens).toBeLessThan(report.recorded.total.cacheReadTokens);
  });

  it('FR-CO-003: should price one compaction of each LLM strategy with the session\'s model and a cheaper condensing model', async () => {
    const session = join(corpus ?? '', 'claude-code', 'claude-code-viewer', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
    const { code, stdout } = await ctx('cost', session, '--json', '--strategies', 'native,lossless', '--condensing-models', 'claude-haiku-4-5,claude-opus-4-1');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as CostReport;
    expect(report.condensing.map((comparison) => comparison.strategy)).toEqual(['native']);
    const [native] = report.condensing;
    expect(native?.conversationModel).toBe('claude-sonnet-4-20250514');
    // The session's own model first, then the others cheapest first; haiku's prices are a third of Sonnet 4's.
    expect(native?.rows.map((row) => row.model)).toEqual(['claude-sonnet-4-20250514', 'claude-haiku-4-5', 'claude-opus-4-1']);
    expect(native?.rows[0]?.estimate.llmCalls).toBeGreaterThan(0);
    expect(native?.rows[1]?.savingsShare).toBeCloseTo(2 / 3, 6);
    expect(native?.rows[2]?.savingsUsd).toBeLessThan(0);
    expect(native?.recommended).toBe('claude-haiku-4-5');
  });

  it('should replay each strategy again with cache-aware planning, unless --no-cache-aware', async () => {
    const session = join(corpus ?? '', 'claude-code', 'claude-code-viewer', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
    const aware = JSON.parse((await ctx('cost', session, '--json', '--strategies', 'high-density')).stdout) as CostReport;
    expect(aware.strategies[0]?.cacheAware?.cost.total.usd).toBeGreaterThan(0);
    expect(aware.strategies[0]?.cacheAware?.savedUsd).toBeCloseTo(aware.recorded.total.usd - (aware.strategies[0]?.cacheAware?.cost.total.usd ?? 0), 9);
    const plain = await ctx('cost', session, '--strategies', 'high-density', '--no-cache-aware');
    expect(plain.stdout).not.toContain('USD cache-aware');
  });

  it('should report a strategy that cannot fit the window as failed with its reason, and exit 1', async () => {
    const session = join(corpus ?? '', 'claude-code', 'claude-code-viewer', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
    const { code, stdout } = await ctx('cost', session, '--strategies', 'sliding-window', '--window', '20000');
    expect(code).toBe(1);
    expect(stdout).toMatch(/sliding-window\s+failed/);
    expect(stdout).toMatch(/\[1\] sliding-window failed: .*only 20,000 fit the context window/);
  });
});
