import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtInPresets, parsePresetJson, type Preset } from '@ctx/presets';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoTranscriptPath } from './demo-transcript.js';
import { ctx } from './test-support/run-ctx.js';

const builtInNames = ['speed', 'quality', 'cost', 'balanced', 'coding-agent'];

/** A valid custom preset that only uses strategies built into ctx. */
const myAgent: Preset = {
  name: 'my-agent',
  description: 'Stale reads folded, then old tool output truncated.',
  strategies: [{ strategy: 'high-density', settings: { foldEdits: true } }, { strategy: 'truncation' }],
};

// `ctx` runs in this process, so each test gets its own presets directory through the environment, restored after
// (test files share a worker: see vitest.config.ts).
const previousPresetsDirectory = process.env.CTX_PRESETS_DIR;
let presetsDirectory = '';
let scratch = '';

beforeEach(async () => {
  presetsDirectory = await mkdtemp(join(tmpdir(), 'ctx-presets-'));
  scratch = await mkdtemp(join(tmpdir(), 'ctx-presets-files-'));
  process.env.CTX_PRESETS_DIR = presetsDirectory;
});

afterEach(async () => {
  if (previousPresetsDirectory === undefined) delete process.env.CTX_PRESETS_DIR;
  else process.env.CTX_PRESETS_DIR = previousPresetsDirectory;
  await rm(presetsDirectory, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

/** Writes `content` (JSON-encoded unless a string) to a file of the scratch directory and returns its path. */
async function scratchFile(name: string, content: unknown): Promise<string> {
  const file = join(scratch, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/** Imports `myAgent` into the presets directory through the CLI. */
async function importMyAgent(): Promise<void> {
  const result = await ctx('presets', 'import', await scratchFile('my-agent.json', myAgent));
  expect(result.code, result.stderr).toBe(0);
}

describe('ctx presets list', () => {
  it('should list the five built-in presets and say where saved ones live', async () => {
    const { code, stdout, stderr } = await ctx('presets');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (const name of builtInNames) expect(stdout).toContain(`${name} — built-in`);
    expect(stdout).toContain('runs: lossless → high-density → middle-out');
    expect(stdout).toContain(`Saved presets live in ${presetsDirectory}`);
  });

  it('should list a saved preset with its file after the built-in ones, also in --json', async () => {
    await importMyAgent();
    const { code, stdout } = await ctx('presets', 'list');
    expect(code).toBe(0);
    expect(stdout).toContain(`my-agent — ${join(presetsDirectory, 'my-agent.json')}`);
    expect(stdout).toContain('runs: high-density → truncation');
    expect(stdout.indexOf('my-agent —')).toBeGreaterThan(stdout.indexOf('coding-agent — built-in'));

    const json = await ctx('presets', 'list', '--json');
    const listed = JSON.parse(json.stdout) as { presets: (Preset & { origin: string })[]; problems: string[] };
    expect(listed.presets.map((preset) => preset.name)).toEqual([...builtInNames, 'my-agent']);
    expect(listed.presets.at(-1)).toEqual({ ...myAgent, origin: join(presetsDirectory, 'my-agent.json'), requiresLLM: false });
    expect(listed.problems).toEqual([]);
  });

  it('should say of each preset whether it needs a model, as ctx compress will require one', async () => {
    const { stdout } = await ctx('presets', 'list');
    const modelLine = (name: string) => stdout.split(`${name} — built-in`)[1]?.split('\n\n')[0]?.match(/ {2}model: (none|needed)/)?.[1];
    expect(builtInNames.map(modelLine)).toEqual(['none', 'needed', 'needed', 'none', 'none']);
    const json = JSON.parse((await ctx('presets', 'list', '--json')).stdout) as { presets: { name: string; requiresLLM: boolean | null }[] };
    expect(json.presets.map((preset) => preset.requiresLLM)).toEqual([false, true, true, false, false]);
    // What the list says is what compress does: a preset that needs a model is refused without a summarizer.
    const refused = await ctx('compress', demoTranscriptPath, '--preset', 'cost', '--json');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/summarizer/);
  });

  it('should report a broken saved preset on stderr and exit 1, still listing the others', async () => {
    await importMyAgent();
    await writeFile(join(presetsDirectory, 'broken.json'), '{ "name": "broken", ');
    await writeFile(join(presetsDirectory, 'renamed.json'), JSON.stringify({ ...myAgent, name: 'other-name' }));
    const { code, stdout, stderr } = await ctx('presets', 'list');
    expect(code).toBe(1);
    for (const name of [...builtInNames, 'my-agent']) expect(stdout).toContain(`${name} — `);
    const problems = stderr.split('\n');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^ctx: skipped a saved preset: .*broken\.json: .*expected JSON/);
    expect(problems[1]).toMatch(/^ctx: skipped a saved preset: .*renamed\.json: holds preset "other-name"/);
  });
});

describe('ctx presets show', () => {
  it('should print what the preset does and each step with its settings, in order', async () => {
    const { code, stdout, stderr } = await ctx('presets', 'show', 'coding-agent');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^coding-agent — built-in\n/);
    expect(stdout).toContain('Steps, in order:\n  1. smart-passes\n');
    expect(stdout).toContain('"foldFileStates": true');
    const passes = (builtInPresets['coding-agent'].strategies[0]?.settings?.['passes'] ?? []) as { id: string }[];
    expect(passes.length).toBeGreaterThan(0);
    for (const pass of passes) expect(stdout).toContain(`"id": "${pass.id}"`);

    const cost = await ctx('presets', 'show', 'cost');
    expect(cost.stdout).toMatch(/ {2}1\. lossless\n {5}\(default settings\)\n {2}2\. smart-passes\n/);
  });

  it('should print --json that parsePresetJson reads back as the same preset', async () => {
    for (const [name, preset] of Object.entries(builtInPresets)) {
      const { code, stdout } = await ctx('presets', 'show', name, '--json');
      expect(code, name).toBe(0);
      expect(parsePresetJson(stdout), name).toEqual(preset);
    }
  });

  it('should show a saved preset and a preset .json file', async () => {
    await importMyAgent();
    const saved = await ctx('presets', 'show', 'my-agent');
    expect(saved.stdout).toContain('1. high-density\n     {\n       "foldEdits": true\n     }\n  2. truncation\n     (default settings)');
    const file = await scratchFile('unsaved.json', { ...myAgent, name: 'unsaved' });
    const fromFile = await ctx('presets', 'show', file, '--json');
    expect(parsePresetJson(fromFile.stdout)).toEqual({ ...myAgent, name: 'unsaved' });
  });

  it('should name the known presets when there is no such preset (exit 2)', async () => {
    await importMyAgent();
    const { code, stdout, stderr } = await ctx('presets', 'show', 'fastest');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'ctx: unknown preset "fastest"; known: speed, quality, cost, balanced, coding-agent, my-agent (or give the path of a preset .json file)',
    );
  });
});

describe('ctx presets export', () => {
  it('should print the preset as JSON', async () => {
    const { code, stdout, stderr } = await ctx('presets', 'export', 'balanced');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(parsePresetJson(stdout)).toEqual(builtInPresets.balanced);
  });

  it('should write --out, and refuse to replace an existing file without --force', async () => {
    const out = join(scratch, 'speed.json');
    const written = await ctx('presets', 'export', 'speed', '--out', out);
    expect(written).toMatchObject({ code: 0, stdout: '', stderr: `ctx: wrote preset "speed" to ${out}` });
    expect(parsePresetJson(await readFile(out, 'utf8'))).toEqual(builtInPresets.speed);

    await writeFile(out, 'keep me');
    const refused = await ctx('presets', 'export', 'cost', '--out', out);
    expect(refused).toMatchObject({ code: 1, stdout: '', stderr: `ctx: --out ${out} exists; add --force to replace it` });
    expect(await readFile(out, 'utf8')).toBe('keep me');

    const forced = await ctx('presets', 'export', 'cost', '--out', out, '--force');
    expect(forced.code).toBe(0);
    expect(parsePresetJson(await readFile(out, 'utf8'))).toEqual(builtInPresets.cost);
  });
});

describe('ctx presets import', () => {
  it('should validate and save the preset as <name>.json in the presets directory', async () => {
    const file = await scratchFile('to-import.json', myAgent);
    const { code, stdout, stderr } = await ctx('presets', 'import', file);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const saved = join(presetsDirectory, 'my-agent.json');
    expect(stdout).toBe(`Saved preset "my-agent" to ${saved}; use it with --preset my-agent`);
    expect(parsePresetJson(await readFile(saved, 'utf8'))).toEqual(myAgent);
  });

  it('should refuse a file that is not a valid preset with one line naming the file and the problems, saving nothing', async () => {
    const invalid = await scratchFile('invalid.json', { name: 'Bad Name', description: 'x', strategies: [] });
    const result = await ctx('presets', 'import', invalid);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`ctx: ${invalid}: Invalid preset "Bad Name": name: expected a kebab-case name`);
    expect(result.stderr).toContain('strategies: expected at least one strategy');

    const notJson = await scratchFile('not-json.json', '{ "name": "half"');
    const unreadable = await ctx('presets', 'import', notJson);
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr.split('\n')).toHaveLength(1);
    expect(unreadable.stderr).toContain(`${notJson}: `);
    expect(unreadable.stderr).toContain('expected JSON');

    const missing = await ctx('presets', 'import', join(scratch, 'nowhere.json'));
    expect(missing).toMatchObject({ code: 1, stderr: `ctx: ${join(scratch, 'nowhere.json')}: cannot read the preset (ENOENT)` });

    expect(await readdir(presetsDirectory)).toEqual([]);
  });

  it('should save under --name, and refuse a --name that is not kebab-case (exit 2)', async () => {
    const file = await scratchFile('to-import.json', myAgent);
    const renamed = await ctx('presets', 'import', file, '--name', 'team-agent');
    expect(renamed.code).toBe(0);
    expect(parsePresetJson(await readFile(join(presetsDirectory, 'team-agent.json'), 'utf8'))).toEqual({ ...myAgent, name: 'team-agent' });
    expect((await ctx('presets', 'show', 'team-agent')).code).toBe(0);

    const bad = await ctx('presets', 'import', file, '--name', 'Team Agent');
    expect(bad).toMatchObject({ code: 2, stderr: 'ctx: --name expects a kebab-case name such as "my-agent", got "Team Agent"' });
    expect(await readdir(presetsDirectory)).toEqual(['team-agent.json']);
  });

  it('should refuse the name of a built-in preset, even with --force', async () => {
    const file = await scratchFile('speed.json', builtInPresets.speed);
    for (const argv of [[file], [file, '--force'], [await scratchFile('mine.json', myAgent), '--name', 'speed']]) {
      const { code, stderr } = await ctx('presets', 'import', ...argv);
      expect(code, argv.join(' ')).toBe(1);
      expect(stderr).toBe('ctx: "speed" is a built-in preset; save yours under another name (--name my-speed)');
    }
    expect(await readdir(presetsDirectory)).toEqual([]);
  });

  it('should refuse to replace a saved preset unless --force is given', async () => {
    await importMyAgent();
    const changed: Preset = { ...myAgent, description: 'A newer version.', threshold: 0.7 };
    const file = await scratchFile('newer.json', changed);
    const saved = join(presetsDirectory, 'my-agent.json');

    const refused = await ctx('presets', 'import', file);
    expect(refused).toMatchObject({ code: 1, stdout: '', stderr: `ctx: a preset "my-agent" is already saved (${saved}); add --force to replace it` });
    expect(parsePresetJson(await readFile(saved, 'utf8'))).toEqual(myAgent);

    const forced = await ctx('presets', 'import', file, '--force');
    expect(forced.code).toBe(0);
    expect(parsePresetJson(await readFile(saved, 'utf8'))).toEqual(changed);
  });

  it('should save a preset whose strategies are not installed, with a note naming them', async () => {
    const file = await scratchFile('elsewhere.json', { ...myAgent, name: 'elsewhere', strategies: [{ strategy: 'semantic-dedup' }] });
    const { code, stderr } = await ctx('presets', 'import', file);
    expect(code).toBe(0);
    expect(stderr).toBe('ctx: note: preset "elsewhere" names strategies not installed here: semantic-dedup (load them with --plugin)');
    expect(existsSync(join(presetsDirectory, 'elsewhere.json'))).toBe(true);
    const shown = (await ctx('presets', 'show', 'elsewhere')).stdout;
    expect(shown).toContain('not installed: semantic-dedup (load with --plugin)');
    // Whether it needs a model cannot be told without the strategy: no model line rather than a guess.
    expect(shown).not.toContain('model:');
  });

  it('should make the saved preset usable by name in ctx compress --preset and ctx compare --presets', async () => {
    await importMyAgent();
    const compressed = await ctx('compress', demoTranscriptPath, '--preset', 'my-agent', '--json');
    expect(compressed.code, compressed.stderr).toBe(0);
    const report = JSON.parse(compressed.stdout) as {
      tokensBefore: number;
      tokensAfter: number;
      reports: { passes: { strategy: string }[] }[];
    };
    expect(report.reports.flatMap((run) => run.passes.map((pass) => pass.strategy))).toContain('my-agent');
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);

    const compared = await ctx('compare', demoTranscriptPath, '--presets', 'my-agent,speed', '--runs', '1', '--json');
    expect(compared.code, compared.stderr).toBe(0);
    const rows = (JSON.parse(compared.stdout) as { results: { strategy: string; outcome: string }[] }).results;
    expect(rows.map((row) => [row.strategy, row.outcome])).toEqual([
      ['my-agent', 'applied'],
      ['speed', 'applied'],
    ]);
  });
});
