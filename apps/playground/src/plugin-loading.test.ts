import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ctx } from './test-support/run-ctx.js';
import { demoTranscriptPath } from './demo-transcript.js';
import { loadPlugins } from './strategy-sources.js';


// A third-party strategy package, written the way an outside author would: plain ESM, no ctx imports needed.
const pluginSource = `
export function createKeepLastTurnsStrategy(settings = {}) {
  const turns = settings.turns ?? 1;
  if (!Number.isInteger(turns) || turns < 1) throw new Error('turns: Expected an integer >= 1, got ' + turns);
  return {
    specificationVersion: 'v1',
    name: 'keep-last-turns',
    description: 'Keeps the last user turns.',
    requiresLLM: false,
    trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    settings: { turns },
    async compress(context) {
      const starts = context.history.flatMap((entry, index) => (entry.speaker === 'human' && index > 0 ? [index] : []));
      const start = starts.at(-turns);
      if (start === undefined) return { type: 'no-op', reason: 'too-few-compressible' };
      const newHistory = context.history.slice(start);
      return {
        type: 'applied',
        newHistory,
        metadata: {
          originalMessageCount: context.history.length,
          compressedMessageCount: newHistory.length,
          strategyUsed: 'keep-last-turns',
          llmCallMade: false,
        },
      };
    },
  };
}
`;

let projectDirectory = '';
let packageDirectory = '';

beforeAll(async () => {
  projectDirectory = await mkdtemp(join(tmpdir(), 'ctx-plugin-project-'));
  packageDirectory = join(projectDirectory, 'node_modules', 'ctx-strategy-keep-last-turns');
  await mkdir(packageDirectory, { recursive: true });
  await writeFile(
    join(packageDirectory, 'package.json'),
    JSON.stringify({ name: 'ctx-strategy-keep-last-turns', version: '1.0.0', type: 'module', exports: { '.': { import: './index.js' } } }),
  );
  await writeFile(join(packageDirectory, 'index.js'), pluginSource);
});

describe('--plugin', () => {
  it('should list a strategy loaded from a package outside the workspace', async () => {
    const { code, stdout } = await ctx('strategies', '--plugin', packageDirectory, '--json');
    expect(code).toBe(0);
    const names = (JSON.parse(stdout) as { strategies: { name: string; packageName: string }[] }).strategies;
    expect(names).toContainEqual(expect.objectContaining({ name: 'keep-last-turns', packageName: packageDirectory }));
  });

  it('should compare and compress with the plugin strategy, settings included', async () => {
    const compared = await ctx('compare', demoTranscriptPath, '--plugin', packageDirectory, '--strategies', 'keep-last-turns', '--json', '--runs', '1');
    expect(compared.code).toBe(0);
    expect((JSON.parse(compared.stdout) as { results: { strategy: string; outcome: string }[] }).results).toEqual([
      expect.objectContaining({ strategy: 'keep-last-turns', outcome: 'applied' }),
    ]);
    const compressed = await ctx(
      'compress', demoTranscriptPath, '--plugin', join(packageDirectory, 'index.js'), '--strategy', 'keep-last-turns',
      '--set', 'keep-last-turns.turns=2', '--json',
    );
    expect(compressed.code).toBe(0);
    const bad = await ctx('compress', demoTranscriptPath, '--plugin', packageDirectory, '--strategy', 'keep-last-turns', '--set', 'keep-last-turns.turns=0');
    expect(bad).toMatchObject({ code: 1 });
    expect(bad.stderr).toBe(
      `ctx: strategy "keep-last-turns" (${packageDirectory}) rejected its settings: turns: Expected an integer >= 1, got 0`,
    );
  });

  it('should run the conformance kit on the plugin strategy', async () => {
    const { code, stdout } = await ctx('conformance', '--plugin', packageDirectory, '--strategies', 'keep-last-turns');
    expect(stdout).toMatch(/Conformance of "keep-last-turns"/);
    expect(code).toBe(0);
  });

  it('should resolve an installed package by name from the project directory', async () => {
    const [source] = await loadPlugins(['ctx-strategy-keep-last-turns'], projectDirectory);
    expect(source?.name).toBe('keep-last-turns');
    expect(source?.create({ turns: 3 }).settings).toEqual({ turns: 3 });
  });

  it('should load a folder given relative to the working directory without ./', async () => {
    const [source] = await loadPlugins(['node_modules/ctx-strategy-keep-last-turns'], projectDirectory);
    expect(source?.name).toBe('keep-last-turns');
  });

  it('should say in one line when a plugin is missing or exports no strategy', async () => {
    expect(await ctx('strategies', '--plugin', '/nowhere/plugin.js')).toMatchObject({
      code: 1,
      stderr: 'ctx: --plugin /nowhere/plugin.js: no such file or directory',
    });
    const empty = join(projectDirectory, 'empty.js');
    await writeFile(empty, 'export const answer = 42;\n');
    expect((await ctx('strategies', '--plugin', empty)).stderr).toMatch(/exports no strategy; expected a default export or a named create…Strategy factory/);
    await expect(loadPlugins(['not-installed-anywhere'], projectDirectory)).rejects.toThrow(/package not found/);
  });
});
