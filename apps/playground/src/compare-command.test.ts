import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ctx } from './test-support/run-ctx.js';
import { findCorpusDirectory } from './corpus.js';
import { demoTranscriptPath } from './demo-transcript.js';


const resultFields = ['file', 'strategy', 'tokensBefore', 'tokensAfter', 'reduction', 'userTextsKept', 'validAnthropic', 'validOpenAI', 'fileStatesKept', 'errorsKept', 'operations', 'ms'];

describe('ctx compare', () => {
  const previousConfigDirectory = process.env.CLAUDE_CONFIG_DIR;
  afterEach(() => {
    if (previousConfigDirectory === undefined) delete process.env.CLAUDE_CONFIG_DIR;
    else process.env.CLAUDE_CONFIG_DIR = previousConfigDirectory;
  });

  it('should print {"results": [...]} with every documented field, fractions in 0..1', async () => {
    const { code, stdout } = await ctx('compare', demoTranscriptPath, '--json', '--runs', '1', '--strategies', 'top-down-truncation');
    expect(code).toBe(0);
    const { results } = JSON.parse(stdout) as { results: Record<string, unknown>[] };
    expect(results).toHaveLength(1);
    for (const field of resultFields) expect(results[0]).toHaveProperty(field);
    for (const field of ['reduction', 'userTextsKept', 'fileStatesKept', 'errorsKept']) {
      expect(results[0]?.[field] as number).toBeGreaterThanOrEqual(0);
      expect(results[0]?.[field] as number).toBeLessThanOrEqual(1);
    }
    expect(results[0]).toMatchObject({ strategy: 'top-down-truncation', validAnthropic: true, validOpenAI: true });
  });

  it('should print the retention and validity columns', async () => {
    const { stdout } = await ctx('compare', demoTranscriptPath, '--runs', '1');
    expect(stdout).toMatch(/strategy +outcome +tokens before → after +reduction +user texts +valid A\/O +file states +errors +ms/);
    expect(stdout).toMatch(/top-down-truncation +applied +[\d,]+ → [\d,]+ +[\d.]+% +[\d.]+% +yes\/yes +[\d.]+% +[\d.]+%/);
  });

  it('should count what lossless replaced by references as kept, marked and explained, and not do so for the others', async () => {
    const json = await ctx('compare', demoTranscriptPath, '--json', '--runs', '1', '--strategies', 'lossless,truncation');
    const rows = (JSON.parse(json.stdout) as { results: Record<string, unknown>[] }).results;
    expect(rows.find((row) => row.strategy === 'lossless')).toMatchObject({
      outcome: 'applied',
      keptThroughReferences: true,
      fileStatesKept: 1,
      errorsKept: 1,
    });
    expect(rows.find((row) => row.strategy === 'truncation')).toMatchObject({ keptThroughReferences: false });
    expect(rows.find((row) => row.strategy === 'truncation')?.fileStatesKept as number).toBeLessThan(1);

    const { stdout } = await ctx('compare', demoTranscriptPath, '--runs', '1', '--strategies', 'lossless,truncation');
    expect(stdout).toMatch(/lossless +applied .* 100\.0%\* +100\.0%\*/);
    expect(stdout).toMatch(/^\* lossless: content replaced by a reference counts as kept/m);
    expect(stdout).not.toMatch(/^\* .*truncation/m);
  });

  it('should use the most recent Claude Code sessions under CLAUDE_CONFIG_DIR when no path is given, saying so', async () => {
    const configDirectory = await mkdtemp(join(tmpdir(), 'ctx-claude-'));
    const project = join(configDirectory, 'projects', '-home-dev-app');
    await mkdir(project, { recursive: true });
    const records = [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's1', message: { role: 'user', content: `please ${'read '.repeat(200)}` } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's1', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'ok '.repeat(200) }] } },
      { type: 'user', uuid: 'u2', parentUuid: 'a1', sessionId: 's1', message: { role: 'user', content: 'thanks' } },
      { type: 'assistant', uuid: 'a2', parentUuid: 'u2', sessionId: 's1', message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'done' }] } },
    ];
    await writeFile(join(project, 's1.jsonl'), records.map((record) => JSON.stringify(record)).join('\n'));
    process.env.CLAUDE_CONFIG_DIR = configDirectory;
    const { code, stdout, stderr } = await ctx('compare', '--json', '--runs', '1');
    expect(code).toBe(0);
    expect(stderr).toBe(`ctx: no path given; comparing the 1 most recent Claude Code sessions in ${join(configDirectory, 'projects')}`);
    expect((JSON.parse(stdout) as { results: { file: string }[] }).results[0]?.file).toBe(join(project, 's1.jsonl'));
  });

  it('should fall back to the built-in demo when there are no Claude Code sessions, saying so', async () => {
    process.env.CLAUDE_CONFIG_DIR = await mkdtemp(join(tmpdir(), 'ctx-empty-claude-'));
    const { stdout } = await ctx('compare', '--runs', '1');
    expect(stdout).toMatch(/^Transcript: built-in demo/);
  });
});

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping ctx compare corpus tests: ../shared/corpus not found (set CTX_CORPUS).');

describe.skipIf(corpus === undefined)('ctx compare on the recorded corpus', () => {
  it('should run every installed strategy on every corpus conversation with valid output', async () => {
    const strategies = (JSON.parse((await ctx('strategies', '--json')).stdout) as { strategies: unknown[] }).strategies;
    const { code, stdout } = await ctx('compare', corpus as string, '--json', '--runs', '1');
    const { results } = JSON.parse(stdout) as {
      results: { file: string; format: string; strategy: string; outcome: string; validAnthropic: boolean; validOpenAI: boolean; userTextsKept: number; operations: Record<string, number> }[];
    };
    const manifest = JSON.parse(await readFile(join(corpus as string, 'manifest.json'), 'utf8')) as unknown[];
    // One row per conversation and strategy: the manifest's files, the OpenHands file holding three.
    expect(results).toHaveLength((manifest.length + 2) * strategies.length);
    for (const result of results) {
      const label = `${result.strategy} on ${result.file}`;
      expect(result.outcome, label).not.toBe('failed');
      expect(result.validAnthropic, label).toBe(true);
      expect(result.validOpenAI, label).toBe(true);
    }
    // Issue 5: read→write pruning fires on the real tools of Claude Code, SWE-agent and mini-swe-agent.
    for (const format of ['claude-code', 'swe-agent', 'mini-swe-agent']) {
      const pruned = results.filter((result) => result.strategy === 'high-density' && result.format === format);
      expect(pruned.some((result) => (result.operations.readWritePairsPruned ?? 0) > 0), format).toBe(true);
    }
    expect(code).toBe(0);
  }, 300_000);
});
