import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBrokenClaudeCodeSession } from './test-support/broken-claude-code-session.js';
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
    expect(stdout).toMatch(/strategy +outcome +request tokens before → after +history tokens after +reduction +user texts +valid A\/O +file states +errors +ms/);
    expect(stdout).toMatch(/top-down-truncation +applied +[\d,]+ → [\d,]+ +[\d,]+ +[\d.]+% +[\d.]+% +yes\/yes +[\d.]+% +[\d.]+%/);
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

const createdDirectories: string[] = [];
const temporaryDirectory = async () => {
  const directory = await mkdtemp(join(tmpdir(), 'ctx-compare-'));
  createdDirectories.push(directory);
  return directory;
};
afterEach(async () => {
  await Promise.all(createdDirectories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

type Row = Record<string, unknown> & { warnings: { type: string; line: number | null; message: string; path: string | null }[] };

describe('ctx compare on input with malformed lines', () => {
  const compare = (...rest: string[]) => ctx('compare', ...rest, '--runs', '1', '--strategies', 'top-down-truncation');

  it('should list each malformed line with its number after the table, escaped, and still exit 0', async () => {
    const { path } = await writeBrokenClaudeCodeSession(await temporaryDirectory());
    const { code, stdout } = await compare(path);
    expect(code).toBe(0);
    const afterTable = stdout.slice(stdout.indexOf('top-down-truncation  applied'));
    expect(afterTable).toContain(`⚠ ${path}: 2 malformed lines skipped\n  line 3: `);
    expect(afterTable).toMatch(/^ {2}line 4: .*\\x1b\[31m/m);
    expect(stdout).not.toContain('\u001b');
  });

  it('should give every row all the transcript\'s warnings with their line numbers in --json, stdout JSON alone', async () => {
    const { path, brokenLines } = await writeBrokenClaudeCodeSession(await temporaryDirectory());
    const { code, stdout, stderr } = await compare(path, '--json');
    expect(code).toBe(0);
    const [row] = (JSON.parse(stdout) as { results: Row[] }).results;
    const malformed = row?.warnings.filter((warning) => warning.type === 'malformed');
    expect(malformed?.map((warning) => warning.line)).toEqual(brokenLines);
    expect(malformed?.[0]?.message).toMatch(/^line 3: /);
    expect(stderr).toBe(`ctx: ${path}: 2 malformed lines skipped (lines 3, 4); "warnings" in the JSON says what was lost`);
  });

  it('should refuse malformed lines with --strict: exit 1, one line with the count and first line, nothing compared', async () => {
    const { path } = await writeBrokenClaudeCodeSession(await temporaryDirectory(), 3);
    for (const extra of [[], ['--json']]) {
      const { code, stdout, stderr } = await compare(path, '--strict', ...extra);
      expect(code, extra.join(' ')).toBe(1);
      expect(stdout, extra.join(' ')).toBe('');
      expect(stderr, extra.join(' ')).toBe(
        `ctx: ${path}: expected no malformed lines with --strict, found 3 malformed lines (first at line 3); repair the file or run without --strict`,
      );
    }
  });

  it('should run a clean transcript with --strict as without it', async () => {
    const { code, stderr } = await compare(demoTranscriptPath, '--strict', '--json');
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});

describe('ctx compare outcomes and figures', () => {
  /** A plugin strategy whose compress() throws a two-line error. */
  const explodingPlugin = async () => {
    const module = join(await temporaryDirectory(), 'exploding-strategy.mjs');
    await writeFile(
      module,
      `export function createExplodingStrategy() {
  return {
    specificationVersion: 'v1',
    name: 'exploding',
    requiresLLM: false,
    trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    async compress() { throw new Error('the summarizer refused the request\\nstatus 503: retry after 30 s'); },
  };
}
`,
    );
    return module;
  };

  it('should never show a failed strategy as valid with 100% retention, and show its whole message', async () => {
    const plugin = await explodingPlugin();
    const { code, stdout } = await ctx('compare', demoTranscriptPath, '--runs', '1', '--plugin', plugin, '--strategies', 'exploding');
    expect(code).toBe(1);
    const row = stdout.split('\n').find((line) => line.startsWith('exploding '));
    expect(row).toMatch(/^exploding +failed \[1\] +48,489 → — +— +— +— +—\/— +— +— +0\.00$/);
    expect(stdout).toMatch(/^\[1\] exploding: .*the summarizer refused the request\n {4}status 503: retry after 30 s$/m);
  });

  it('should give a failed strategy null figures and its whole message in --json', async () => {
    const plugin = await explodingPlugin();
    const { stdout } = await ctx('compare', demoTranscriptPath, '--runs', '1', '--plugin', plugin, '--strategies', 'exploding', '--json');
    const [row] = (JSON.parse(stdout) as { results: Row[] }).results;
    expect(row).toMatchObject({
      outcome: 'failed',
      tokensAfter: null,
      reduction: null,
      userTextsKept: null,
      validAnthropic: null,
      validOpenAI: null,
      fileStatesKept: null,
      errorsKept: null,
    });
    expect(row?.detail).toMatch(/the summarizer refused the request\nstatus 503: retry after 30 s$/);
  });

  it('should carry the reason code and the strategy\'s whole sentence of a no-op in --json and under the table', async () => {
    const json = await ctx('compare', demoTranscriptPath, '--runs', '1', '--strategies', 'watermark', '--json');
    const [row] = (JSON.parse(json.stdout) as { results: Row[] }).results;
    expect(row).toMatchObject({ outcome: 'no-op', reason: 'too-few-compressible' });
    expect(row?.detail).toMatch(/^too-few-compressible — no call of a checkpoint tool .* in the history$/);
    const { stdout } = await ctx('compare', demoTranscriptPath, '--runs', '1', '--strategies', 'watermark');
    expect(stdout).toMatch(/^watermark +no-op \(too-few-compressible\) \[1\] /m);
    expect(stdout).toContain(`[1] watermark: ${String(row?.detail)}`);
  });

  it('should name request and history tokens, with thousands separators, matching --json', async () => {
    const json = await ctx('compare', demoTranscriptPath, '--runs', '1', '--strategies', 'lossless', '--json');
    const [row] = (JSON.parse(json.stdout) as { results: Row[] }).results;
    const integer = new Intl.NumberFormat('en-US');
    const { tokensBefore, tokensAfter, historyTokensBefore, historyTokensAfter } = row as Record<string, number>;
    expect(historyTokensAfter).toBeLessThan(tokensAfter as number);
    const { stdout } = await ctx('compare', demoTranscriptPath, '--runs', '1', '--strategies', 'lossless');
    expect(stdout).toContain(
      `${integer.format(tokensBefore as number)} request tokens = ${integer.format(historyTokensBefore as number)} history + ${integer.format((tokensBefore as number) - (historyTokensBefore as number))} system and tools`,
    );
    expect(stdout).toMatch(/strategy +outcome +request tokens before → after +history tokens after +reduction/);
    expect(stdout).toMatch(
      new RegExp(`^lossless +applied +${integer.format(tokensBefore as number)} → ${integer.format(tokensAfter as number)} +${integer.format(historyTokensAfter as number)} `, 'm'),
    );
    expect(integer.format(historyTokensAfter as number)).toMatch(/^\d{1,3},\d{3}$/);
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
