import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAICompatibleServer, type FakeOpenAICompatibleServer } from '@ctx/summarizer-ai-sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoTranscriptPath } from './demo-transcript.js';
import { ctx } from './test-support/run-ctx.js';

interface CompressReport {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly reports: readonly {
    readonly passes: readonly {
      readonly pass: string;
      readonly strategy: string;
      readonly outcome: string;
      readonly compressionMetadata?: { readonly counts?: Readonly<Record<string, number>> };
      readonly densityMetadata?: Readonly<Record<string, number>>;
    }[];
  }[];
}

interface CompareRow {
  readonly strategy: string;
  readonly requiresLLM: boolean;
  readonly outcome: string;
  readonly operations: Readonly<Record<string, number>>;
}

// Saved presets would change what the names below find: each test gets an empty presets directory, restored after
// (`ctx` runs in this process and test files share a worker).
const previousPresetsDirectory = process.env.CTX_PRESETS_DIR;
let scratch = '';
let server: FakeOpenAICompatibleServer | undefined;

beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'ctx-preset-options-'));
  process.env.CTX_PRESETS_DIR = join(scratch, 'presets');
});

afterEach(async () => {
  if (previousPresetsDirectory === undefined) delete process.env.CTX_PRESETS_DIR;
  else process.env.CTX_PRESETS_DIR = previousPresetsDirectory;
  await server?.close();
  server = undefined;
  await rm(scratch, { recursive: true, force: true });
});

async function presetFile(name: string, preset: unknown): Promise<string> {
  const file = join(scratch, name);
  await writeFile(file, JSON.stringify(preset));
  return file;
}

function passesOf(report: CompressReport) {
  return report.reports.flatMap((run) => run.passes);
}

/** Every count the report's passes carry: density passes' metadata and compression passes' counts. */
function countsOf(report: CompressReport): Record<string, number> {
  return Object.assign({}, ...passesOf(report).map((pass) => ({ ...pass.densityMetadata, ...pass.compressionMetadata?.counts }))) as Record<string, number>;
}

describe('ctx compress --preset', () => {
  it('should run the preset as one strategy named after it, with its steps\' counts in the report', async () => {
    const { code, stdout, stderr } = await ctx('compress', demoTranscriptPath, '--preset', 'speed');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/Compression \(speed\): [\d,]+ → [\d,]+ tokens \(-\d+%\)/);
    expect(stdout).toMatch(/done: .*truncation\.toolResultsTruncated \d+/);
    expect(stdout).toContain('Valid request: Anthropic yes, OpenAI yes');
  });

  it('should report the preset\'s passes and per-step counts in --json', async () => {
    const { code, stdout } = await ctx('compress', demoTranscriptPath, '--preset', 'coding-agent', '--json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as CompressReport;
    const passes = passesOf(report);
    expect(passes.length).toBeGreaterThan(0);
    expect(passes.every((pass) => pass.strategy === 'coding-agent')).toBe(true);
    const counts = countsOf(report);
    // Keys are prefixed with the step's strategy, and then the smart pass's id.
    expect(Object.keys(counts).some((key) => key.startsWith('smart-passes.superseded-file-content.'))).toBe(true);
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
  });

  it('should read a preset from a .json path', async () => {
    const file = await presetFile('mine.json', {
      name: 'mine',
      description: 'Folded edits, then truncation.',
      strategies: [{ strategy: 'high-density', settings: { foldEdits: true } }, { strategy: 'truncation' }],
    });
    // A budget high-density alone does not reach, so both steps run, in order.
    const { code, stdout, stderr } = await ctx('compress', demoTranscriptPath, '--preset', file, '--budget', '8000', '--json');
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as CompressReport;
    expect(passesOf(report).map((pass) => pass.strategy)).toContain('mine');
    const keys = Object.keys(countsOf(report));
    expect(keys.some((key) => key.startsWith('high-density.'))).toBe(true);
    expect(keys.some((key) => key.startsWith('truncation.'))).toBe(true);
  });

  it('should refuse --preset with --strategy, and neither, as usage errors (exit 2)', async () => {
    expect(await ctx('compress', demoTranscriptPath, '--preset', 'speed', '--strategy', 'truncation')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'ctx: use either --strategy or --preset, not both (a preset already names its strategies)',
    });
    expect(await ctx('compress', demoTranscriptPath)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'ctx: compress needs --strategy <names> or --preset <name> (see ctx strategies, ctx presets)',
    });
  });

  it('should name the known presets for an unknown one (exit 2)', async () => {
    expect(await ctx('compress', demoTranscriptPath, '--preset', 'fastest')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'ctx: unknown preset "fastest"; known: speed, quality, cost, balanced, coding-agent (or give the path of a preset .json file)',
    });
  });

  it('should name the preset, the step and the package to install when a step\'s strategy does not exist (exit 1)', async () => {
    const file = await presetFile('ghost.json', {
      name: 'ghost',
      description: 'Truncation, then a strategy that is not installed.',
      strategies: [{ strategy: 'truncation' }, { strategy: 'semantic-dedup' }],
    });
    const { code, stdout, stderr } = await ctx('compress', demoTranscriptPath, '--preset', file, '--out', join(scratch, 'out.json'));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^ctx: preset "ghost" \(.*ghost\.json\) cannot be used: strategies\[1\]\.strategy: no strategy "semantic-dedup"/);
    expect(stderr).toContain('@ctx/strategy-semantic-dedup');
  });

  it('should name the step whose settings its strategy rejects (exit 1)', async () => {
    const file = await presetFile('bad-settings.json', {
      name: 'bad-settings',
      description: 'Truncation with a setting out of range.',
      strategies: [{ strategy: 'truncation', settings: { preserveRecentCount: -1 } }],
    });
    const { code, stderr } = await ctx('compress', demoTranscriptPath, '--preset', file);
    expect(code).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^ctx: preset "bad-settings" .*strategies\[0\]: truncation rejected its settings: .*preserveRecentCount/);
  });

  it('should refuse a preset that needs a model without summarizer flags (exit 2), and run it with them', async () => {
    const refused = await ctx('compress', demoTranscriptPath, '--preset', 'cost');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^ctx: cost summarizes with a model and no summarizer was given: add --summarizer-url/);

    server = await startFakeOpenAICompatibleServer(() => ({
      summary: 'The user asked to fix the parser; the tests were run and pass.',
      usage: { inputTokens: 9_000, outputTokens: 40 },
    }));
    // A budget the mechanical steps cannot reach, so the conditional summary pass calls the model.
    const result = await ctx(
      'compress',
      demoTranscriptPath,
      '--preset',
      'cost',
      '--budget',
      '6000',
      '--summarizer-url',
      server.url,
      '--summarizer-model',
      'small',
      '--json',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.length).toBeGreaterThan(0);
    const counts = countsOf(JSON.parse(result.stdout) as CompressReport);
    expect(Object.keys(counts).some((key) => key.startsWith('smart-passes.summarize-old-turns.'))).toBe(true);
  });
});

describe('ctx compare --presets', () => {
  it('should compare each preset as one row named after it, saying which need a model', async () => {
    const { code, stdout, stderr } = await ctx('compare', demoTranscriptPath, '--presets', 'speed,coding-agent,quality', '--runs', '1', '--json');
    expect(code, stderr).toBe(0);
    const rows = (JSON.parse(stdout) as { results: CompareRow[] }).results;
    expect(rows.map((row) => [row.strategy, row.requiresLLM])).toEqual([
      ['speed', false],
      ['coding-agent', false],
      ['quality', true],
    ]);
    expect(rows[0]?.outcome).toBe('applied');
    expect(Object.keys(rows[0]?.operations ?? {}).every((key) => key.startsWith('truncation.'))).toBe(true);
    expect(Object.keys(rows[1]?.operations ?? {}).every((key) => key.startsWith('smart-passes.'))).toBe(true);
  });

  it('should compare presets beside --strategies', async () => {
    const { code, stdout } = await ctx('compare', demoTranscriptPath, '--strategies', 'truncation', '--presets', 'speed', '--runs', '1', '--json');
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { results: CompareRow[] }).results.map((row) => row.strategy)).toEqual(['truncation', 'speed']);
  });

  it('should refuse an empty --presets (exit 2) and an unknown preset (exit 2)', async () => {
    expect(await ctx('compare', demoTranscriptPath, '--presets', '')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'ctx: --presets expects one or more preset names, got ""',
    });
    expect(await ctx('compare', demoTranscriptPath, '--presets', ' , ')).toMatchObject({ code: 2 });
    const unknown = await ctx('compare', demoTranscriptPath, '--presets', 'speed,fastest');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/^ctx: unknown preset "fastest"; known: speed, quality, cost, balanced, coding-agent/);
  });
});
