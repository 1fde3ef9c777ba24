import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
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

/** A plugin folder written by the test: `package.json` (raw text, or none) and module files. */
async function writePlugin(files: Readonly<Record<string, string>>): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'ctx-broken-plugin-'));
  for (const [name, content] of Object.entries(files)) await writeFile(join(directory, name), content);
  return directory;
}

const modulePackage = JSON.stringify({ name: 'broken', version: '1.0.0', type: 'module', main: 'index.js' });

/** A strategy module whose `compress()` runs `body` (with `context` in scope) and otherwise drops the oldest entry. */
function strategyModule(name: string, body: string): string {
  return `
export default function create() {
  return {
    specificationVersion: 'v1',
    name: '${name}',
    requiresLLM: false,
    trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    async compress(context) {
      ${body}
      return { type: 'no-op', reason: 'too-few-compressible' };
    },
  };
}
`;
}

describe('--plugin errors (issue 14)', () => {
  it('should say in one line that a plugin folder has no package.json, naming the folder', async () => {
    const directory = await writePlugin({ 'index.js': 'export default 1;\n' });
    const { code, stderr } = await ctx('strategies', '--plugin', directory);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `ctx: --plugin ${directory}: no package.json in ${directory}; expected a package folder whose package.json names its module in "exports" or "main", or the path of a module file`,
    );
  });

  it('should say in one line that a package.json is not valid JSON, naming the file', async () => {
    const directory = await writePlugin({ 'package.json': '{ "name": "broken", ', 'index.js': '' });
    const { code, stderr } = await ctx('strategies', '--plugin', directory);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^ctx: --plugin .*: ${join(directory, 'package.json').replaceAll('/', '\\/')} is not a valid package\\.json \\(.*JSON.*\\); expected a package folder`));
    expect(stderr.split('\n')).toHaveLength(1);
  });

  it('should say which entry point is missing and where it came from', async () => {
    const directory = await writePlugin({ 'package.json': JSON.stringify({ name: 'unbuilt', main: 'dist/index.js' }) });
    const { code, stderr } = await ctx('strategies', '--plugin', directory);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `ctx: --plugin ${directory}: the entry point ${join(directory, 'dist/index.js')} (from "main" in ${join(directory, 'package.json')}) is not a file; build the package, or point "exports" or "main" at its module`,
    );
  });

  it('should say in one line that a plugin module threw on import, without its stack', async () => {
    const directory = await writePlugin({ 'package.json': modulePackage, 'index.js': "throw new RangeError('cannot start');\n" });
    const { code, stderr } = await ctx('strategies', '--plugin', directory);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `ctx: --plugin ${directory}: importing ${join(directory, 'index.js')} failed (RangeError: cannot start); expected an ES module that loads without errors`,
    );
  });

  it('should say which export is not a strategy and what it lacks', async () => {
    const object = await writePlugin({ 'package.json': modulePackage, 'index.js': "export default { name: 'half-done' };\n" });
    const notObject = await ctx('strategies', '--plugin', object);
    expect(notObject.code).toBe(1);
    expect(notObject.stderr).toMatch(/^ctx: --plugin .*: export "default" is not a strategy \(Not a valid compression strategy "half-done": .*compress.*\); expected a strategy factory/);
    expect(notObject.stderr.split('\n')).toHaveLength(1);
    const text = await writePlugin({ 'package.json': modulePackage, 'index.js': "export default 'hello';\n" });
    expect((await ctx('strategies', '--plugin', text)).stderr).toMatch(/^ctx: --plugin .*: export "default" is a string; expected a strategy factory/);
  });
});

describe('a plugin strategy that fails during compress (issue 14)', () => {
  it('should report a strategy that throws in one line, exit 1 and write nothing to --out', async () => {
    const directory = await writePlugin({ 'package.json': modulePackage, 'index.js': strategyModule('thrower', "throw new Error('out of ideas');") });
    const outDirectory = await mkdtemp(join(tmpdir(), 'ctx-out-'));
    const result = await ctx('compress', demoTranscriptPath, '--plugin', directory, '--strategy', 'thrower', '--window', '20000', '--out', join(outDirectory, 'x.json'));
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: 'ctx: strategy "thrower" threw in compress(): Error: out of ideas' });
    expect(await readdir(outDirectory)).toEqual([]);
  });

  it('should say that a strategy changed the history it was given', async () => {
    const directory = await writePlugin({
      'package.json': modulePackage,
      'index.js': strategyModule('mutator', "context.history[0].blocks[0].text = 'changed';"),
    });
    const { code, stderr } = await ctx('compress', demoTranscriptPath, '--plugin', directory, '--strategy', 'mutator', '--window', '20000');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^ctx: strategy "mutator" changed the history it was given in compress\(\) \(TypeError: Cannot (assign to read only|add) property .*\); a strategy must leave its input unchanged and return a new history$/,
    );
  });

  it('should add the stack traces, the strategy error included, with --debug', async () => {
    const directory = await writePlugin({ 'package.json': modulePackage, 'index.js': strategyModule('thrower', "throw new Error('out of ideas');") });
    const debug = await ctx('compress', demoTranscriptPath, '--plugin', directory, '--strategy', 'thrower', '--window', '20000', '--debug');
    expect(debug.code).toBe(1);
    const [line, ...stack] = debug.stderr.split('\n');
    expect(line).toBe('ctx: strategy "thrower" threw in compress(): Error: out of ideas');
    expect(stack.join('\n')).toMatch(/^StrategyFailedError: .*\n\s+at [\s\S]*Caused by:\nError: out of ideas\n\s+at .*index\.js/);
  });
});
