#!/usr/bin/env node
// Proves the "Install from a clone" route of the README (`npm run pack:check`, also a check of `npm test`):
//  1. builds, then packs every package under packages/ with the README's command, `pnpm -r --filter "./packages/*"
//     pack` (which rewrites `workspace:` dependency ranges to versions; checked in each tarball's package.json, and
//     every tarball must be of a non-private package);
//  2. lints each tarball with publint (`--strict`: warnings fail too) and are-the-types-wrong (profile `esm-only`: our
//     packages are ESM only, so CommonJS `require` and the pre-`exports` `node10` resolution are out of scope);
//  3. installs all tarballs at once into a scratch project made with plain npm (so `@ctx/*` dependencies resolve to
//     each other and everything else comes from the registry npm is configured with);
//  4. imports every export of every package there, counts tokens with both tokenizers (tiktoken is WASM);
//  5. type-checks the README's "Use it in an agent loop" example against the installed types (tsc, nodenext) and runs
//     it with node: it must exit 0 and print the turn report the README describes.
// Prints one line per package and per step (with its time), exits 1 on any problem, removes its temporary
// directories (`--keep` keeps them and prints where they are; `--skip-build` when the packages were just built).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { problemKindInfo } from '@arethetypeswrong/core/problems';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { agentLoopHeading, agentLoopProgram, checkAgentLoopOutput, readCodeBlockAfterHeading } from './readme-agent-loop.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const keep = process.argv.includes('--keep');
// scripts/test.mjs has just built everything.
const skipBuild = process.argv.includes('--skip-build');
const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  FORCE_COLOR: '0',
  NO_COLOR: '1',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};
const rootBin = (packageName, binName) => {
  const manifest = JSON.parse(readFileSync(join(root, 'node_modules', packageName, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[binName];
  return join(root, 'node_modules', packageName, bin);
};

const problems = [];
const stepTimes = [];

/** Runs a command, returns its exit status and output (captured, printed only when asked or on failure). */
function exec(command, args, { cwd = root, print = false } = {}) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, shell: process.platform === 'win32' });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`;
  if (print) process.stdout.write(output);
  return { ok: result.status === 0, status: result.status, stdout: result.stdout ?? '', output };
}

/** Runs one node script of a root devDependency with this node. */
function execBin(packageName, binName, args, options = {}) {
  return exec(process.execPath, [rootBin(packageName, binName), ...args], options);
}

async function step(label, action) {
  const started = Date.now();
  let ok;
  try {
    ok = await action();
  } catch (error) {
    problems.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    ok = false;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  stepTimes.push([label, seconds]);
  process.stdout.write(`${ok ? '✓' : '✗'} ${label} (${seconds} s)\n`);
  return ok;
}

function indent(text) {
  return text
    .trim()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/**
 * publint on a tarball, as `publint run <tarball> --strict` lints it: warnings count as errors, suggestions are not
 * problems. Returns one line per problem.
 */
async function lintWithPublint(data) {
  const tarball = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const { messages, pkg } = await publint({ pack: { tarball }, strict: true });
  return messages.filter((message) => message.type === 'error').map((message) => formatMessage(message, pkg, { color: false }) ?? message.code);
}

/**
 * The module resolutions are-the-types-wrong's profile `esm-only` checks: every one but CommonJS `require`
 * (`node16-cjs`) and the pre-`exports` `node10`, out of scope for ESM-only packages.
 */
const ignoredResolutions = new Set(['node10', 'node16-cjs']);

/**
 * are-the-types-wrong on a tarball, as `attw <tarball> --profile esm-only --no-definitely-typed` checks it (no
 * `@types` package is looked up: ours ship their own types), except that a package without types is a problem here
 * (the CLI passes one). Returns one line per problem.
 */
async function checkTypesResolve(data) {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(data)));
  if (!analysis.types) return ['the package has no types'];
  return analysis.problems
    .filter((problem) => !('resolutionKind' in problem) || !ignoredResolutions.has(problem.resolutionKind))
    .map((problem) => {
      const where = ['entrypoint' in problem ? problem.entrypoint : undefined, 'resolutionKind' in problem ? problem.resolutionKind : undefined].filter(Boolean);
      return `${problemKindInfo[problem.kind].title}${where.length > 0 ? ` (${where.join(', ')})` : ''}: ${problemKindInfo[problem.kind].shortDescription}`;
    });
}

const temporary = mkdtempSync(join(tmpdir(), 'ctx-packed-'));
const tarballDirectory = join(temporary, 'tarballs');
const unpackedDirectory = join(temporary, 'unpacked');
const scratch = join(temporary, 'scratch');
for (const directory of [tarballDirectory, unpackedDirectory, scratch]) mkdirSync(directory);

const packages = readdirSync(join(root, 'packages'))
  .map((directory) => join(root, 'packages', directory))
  .filter((directory) => existsSync(join(directory, 'package.json')))
  .map((directory) => ({ directory, manifest: JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => manifest.private !== true)
  .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
const publicNames = new Set(packages.map(({ manifest }) => manifest.name));
const dependencyFields = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];

try {
  const built = skipBuild || await step('build', () => {
    const result = exec('npx', ['turbo', 'run', 'build', '--output-logs=errors-only']);
    if (!result.ok) problems.push(`build failed:\n${indent(result.output)}`);
    return result.ok;
  });

  const packed = built && await step(`pack (pnpm -r --filter "./packages/*" pack, as the README says)`, () => {
    // The README's command, so this proves it: one pnpm run packs every package under packages/.
    const result = execBin('pnpm', 'pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', tarballDirectory]);
    if (!result.ok) throw new Error(`pnpm pack failed:\n${indent(result.output)}`);
    const tarballNameOf = (manifest) => `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`;
    const expected = new Set(packages.map(({ manifest }) => tarballNameOf(manifest)));
    for (const file of readdirSync(tarballDirectory)) {
      if (!expected.has(file)) problems.push(`the README's pack command also packed ${file}, which is not a public package under packages/ (a private package there would reach users)`);
    }
    for (const entry of packages) {
      const { manifest } = entry;
      entry.tarball = join(tarballDirectory, tarballNameOf(manifest));
      if (!existsSync(entry.tarball)) {
        entry.failures = [`pnpm pack wrote no ${tarballNameOf(manifest)}`];
        continue;
      }
      entry.failures = [];
      // What npm will read: the package.json inside the tarball.
      const unpacked = join(unpackedDirectory, manifest.name.replace('/', '+'));
      mkdirSync(unpacked);
      const untar = exec('tar', ['-xzf', entry.tarball, '-C', unpacked]);
      if (!untar.ok) throw new Error(`could not unpack ${entry.tarball}:\n${indent(untar.output)}`);
      const packedManifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'));
      for (const field of dependencyFields) {
        for (const [dependency, range] of Object.entries(packedManifest[field] ?? {})) {
          if (range.startsWith('workspace:')) entry.failures.push(`${field}.${dependency} is still "${range}" (pnpm pack should rewrite it)`);
          else if (field !== 'devDependencies' && dependency.startsWith('@ctx/') && !publicNames.has(dependency)) {
            entry.failures.push(`${field}.${dependency} is not a public package of this repository, so npm cannot install it`);
          }
        }
      }
    }
    return problems.length === 0 && packages.every((entry) => entry.failures.length === 0);
  });

  if (packed) {
    // Both linters run here, through their libraries, one tarball after another: a process per tarball spent about
    // 2.4 s of CPU on each (are-the-types-wrong loads TypeScript every time), over a minute of CI's 2 cores for 28
    // packages; in one process all of them take about 3 s.
    await step('publint --strict and attw --profile esm-only on each tarball', async () => {
      for (const entry of packages) {
        const data = readFileSync(entry.tarball);
        const publintProblems = await lintWithPublint(data);
        if (publintProblems.length > 0) entry.failures.push(`publint:\n${indent(publintProblems.join('\n'))}`);
        const typeProblems = await checkTypesResolve(data);
        if (typeProblems.length > 0) entry.failures.push(`are-the-types-wrong:\n${indent(typeProblems.join('\n'))}`);
      }
      return packages.every((entry) => entry.failures.length === 0);
    });
  }
  for (const entry of packages) {
    const size = entry.tarball !== undefined && existsSync(entry.tarball) ? `${(statSync(entry.tarball).size / 1024).toFixed(0)} kB` : 'not packed';
    if (entry.failures === undefined) continue;
    if (entry.failures.length === 0) process.stdout.write(`  ✓ ${entry.manifest.name} (${size}): packed, workspace ranges rewritten, publint ok, attw ok\n`);
    else {
      process.stdout.write(`  ✗ ${entry.manifest.name} (${size}):\n${entry.failures.map((failure) => `    - ${failure}`).join('\n')}\n`);
      problems.push(`${entry.manifest.name}: ${entry.failures.length} problem(s), listed above`);
    }
  }

  const installed =
    packed &&
    await step('npm init -y && npm install <every tarball> in a scratch project', () => {
      const init = exec('npm', ['init', '-y'], { cwd: scratch });
      if (!init.ok) throw new Error(`npm init failed:\n${indent(init.output)}`);
      const install = exec('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packages.map((entry) => entry.tarball)], { cwd: scratch });
      if (!install.ok) problems.push(`npm install of the tarballs failed:\n${indent(install.output)}`);
      return install.ok;
    });

  if (installed) {
    await step('import every export of every installed package; count tokens with both tokenizers', () => {
      const specifiers = [];
      for (const { manifest } of packages) {
        for (const subpath of Object.keys(manifest.exports ?? { '.': null })) {
          if (subpath.endsWith('.json')) continue;
          specifiers.push(subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`);
        }
      }
      const probe = [
        `const specifiers = ${JSON.stringify(specifiers)};`,
        // The vitest wrapper of the kit needs its optional peer vitest, which a library user installs only to use it.
        "const needsVitest = new Set(['@ctx/conformance/vitest']);",
        'const failures = [];',
        'for (const specifier of specifiers) {',
        '  try { const module = await import(specifier); if (Object.keys(module).length === 0) failures.push(`${specifier}: no exports`); }',
        "  catch (error) { if (!(needsVitest.has(specifier) && /'vitest'/.test(String(error)))) failures.push(`${specifier}: ${error}`); }",
        '}',
        "const { createGptTokenizer } = await import('@ctx/tokenizer-gpt-tokenizer');",
        "const { createTiktokenTokenizer } = await import('@ctx/tokenizer-tiktoken');",
        "const text = 'Keep the conversation inside the context window.';",
        'for (const tokenizer of [await createGptTokenizer(), await createTiktokenTokenizer()]) {',
        '  const count = tokenizer.countTokens(text);',
        '  if (!(count > 0 && count < text.length)) failures.push(`${tokenizer.name} counted ${count} tokens for ${text.length} characters`);',
        '}',
        "if (failures.length > 0) { console.log(failures.join('\\n')); process.exitCode = 1; }",
        'else console.log(`imported ${specifiers.length} entry points; both tokenizers count`);',
      ].join('\n');
      writeFileSync(join(scratch, 'import-every-export.mjs'), probe);
      const result = exec(process.execPath, ['import-every-export.mjs'], { cwd: scratch });
      process.stdout.write(indent(result.output) + '\n');
      if (!result.ok) problems.push('importing the installed packages failed (see above)');
      return result.ok;
    });

    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const example = readCodeBlockAfterHeading(readme, agentLoopHeading);
    writeFileSync(join(scratch, 'agent-loop.mts'), agentLoopProgram(example.code));
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      `${JSON.stringify(
        {
          compilerOptions: {
            target: 'es2022',
            module: 'nodenext',
            moduleResolution: 'nodenext',
            strict: true,
            // Check the installed declaration files too, as a user's build with default settings would.
            skipLibCheck: false,
            rootDir: '.',
            outDir: 'out',
            // The monorepo's @types/node (Node 20), so the scratch project installs nothing but our tarballs.
            typeRoots: [join(root, 'node_modules', '@types')],
            types: ['node'],
          },
          files: ['agent-loop.mts'],
        },
        null,
        2,
      )}\n`,
    );
    await step(`type-check the README example "${agentLoopHeading.replace(/^#+\s*/, '')}" (tsc, nodenext, installed types)`, () => {
      const result = execBin('typescript', 'tsc', ['-p', join(scratch, 'tsconfig.json')], { cwd: scratch });
      if (!result.ok) problems.push(`tsc found errors in the README example (${join(scratch, 'agent-loop.mts')}):\n${indent(result.output)}`);
      return result.ok;
    });
    await step('run the README example with node', () => {
      const compiled = join(scratch, 'out', 'agent-loop.mjs');
      if (!existsSync(compiled)) throw new Error('tsc emitted no agent-loop.mjs');
      const result = exec(process.execPath, [compiled], { cwd: scratch });
      process.stdout.write(`${indent(result.output)}\n`);
      const outputProblems = checkAgentLoopOutput(result.stdout);
      if (!result.ok) outputProblems.unshift(`exited with ${result.status}`);
      for (const problem of outputProblems) problems.push(`README example: ${problem}`);
      return outputProblems.length === 0;
    });
  }
} finally {
  if (keep) process.stdout.write(`kept ${temporary}\n`);
  else rmSync(temporary, { recursive: true, force: true });
}

if (problems.length > 0) {
  process.stdout.write(`\npacked install FAILED:\n${problems.map((problem) => `- ${problem}`).join('\n')}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(`\npacked install ok: ${packages.length} packages (${stepTimes.map(([label, seconds]) => `${label.split(' ')[0]} ${seconds} s`).join(', ')})\n`);
}
