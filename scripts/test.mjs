#!/usr/bin/env node
// The one test command (`npm test`): installs, builds, then side by side type-checks, lints, builds the API docs, checks
// changesets and proves the packed packages install and work with plain npm (scripts/pack-and-install.mjs), runs every vitest test
// on Node 20 (this machine's), 22 and 24 side by side (the others fetched with `npx -y node@<major>`; there without the corpus
// tests, which run once), and ends with the line
// `N passed, N failed`: each static check counts as one test, each vitest test counts once per Node version it ran
// on. The line before it says how many tests were skipped and, when the corpus is absent, how to point at it.
// `CTX_TEST_NODES=20` (a comma-separated list of Node majors, default `20,22,24`) runs vitest on fewer versions.
// Works from a fresh clone with only Node 20 + npm.
import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDirectory, corpusExists } from './corpus-directory.mjs';
import { readVitestResults } from './vitest-results.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', npm_config_update_notifier: 'false', FORCE_COLOR: '0' };
const resultsFile = `${root}.vitest-results.json`;
const hostMajor = process.versions.node.split('.')[0];
const nodeMajors = (process.env.CTX_TEST_NODES ?? '20,22,24')
  .split(',')
  .map((major) => major.trim())
  .filter((major) => major !== '');
const timings = [];

function run(label, command, args) {
  process.stdout.write(`\n▶ ${label}: ${command} ${args.join(' ')}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit', shell: process.platform === 'win32' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  timings.push(`${label} ${seconds} s`);
  process.stdout.write(`${ok ? '✓' : '✗'} ${label} (${seconds} s)\n`);
  return ok;
}

/**
 * Runs a command without waiting, its output captured and printed in one piece when it ends (so checks that run at
 * once do not interleave their lines); resolves to whether it exited 0.
 */
function runCaptured(label, command, args) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    const finish = (ok, error) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      timings.push(`${label} ${seconds} s`);
      const output = `${Buffer.concat(chunks).toString('utf8')}${error === undefined ? '' : `${String(error)}\n`}`;
      process.stdout.write(`\n▶ ${label}: ${command} ${args.join(' ')}\n${output}${ok ? '✓' : '✗'} ${label} (${seconds} s)\n`);
      resolve(ok);
    };
    child.on('error', (error) => finish(false, error));
    child.on('close', (status) => finish(status === 0));
  });
}

const checks = [];
const install = run('install', 'npx', ['-y', 'pnpm@10.34.9', 'install', '--frozen-lockfile']);
checks.push(['install', install]);
if (install) {
  const built = run('build', 'npx', ['turbo', 'run', 'build', '--output-logs=errors-only']);
  checks.push(['build', built]);
  // The checks below only read the sources and the build, so they run at once: one after another, lint and the docs
  // (one process each) and the packed install (waiting on npm much of its time) left one of CI's 2 cores idle.
  const staticChecks = [
    // Every package's own `typecheck` config in one process, sharing the declaration files they all read (one `tsc`
    // per package parsed them once per config: 164 s of CI alone, 107 s one after another; 38 s in one process).
    ['typecheck', process.execPath, ['scripts/typecheck.mjs']],
    // One ESLint process for the whole repository: its type-aware rules then share one TypeScript service (the
    // libraries and the packages' declarations read once), where a process per package took 3.5 minutes of 2 cores.
    ['lint', 'npx', ['eslint', '.']],
    ['docs', 'npx', ['typedoc', '--logLevel', 'Warn']],
    ...(existsSync(`${root}.git`) ? [['changesets', 'npx', ['changeset', 'status']]] : []),
  ];
  const outcomes = await Promise.all([
    ...staticChecks.map(([label, command, args]) => runCaptured(label, command, args)),
    // Needs the build above; without one it cannot pack anything, so it fails with it.
    built ? runCaptured('packed install', process.execPath, ['scripts/pack-and-install.mjs', '--skip-build']) : false,
  ]);
  for (const [index, [label]] of staticChecks.entries()) checks.push([label, outcomes[index]]);
  checks.push(['packed install', outcomes.at(-1)]);
}

let passed = 0;
let failed = 0;
const skippedPerNode = [];
const nodeSummaries = [];

/** Adds one vitest run's JSON results to the totals; a run that wrote none counts as one failure. */
function countVitestRun(label, file) {
  const results = readVitestResults(file);
  if (results === undefined) {
    failed += 1;
    nodeSummaries.push(`✗ ${label}: vitest wrote no results`);
    return;
  }
  passed += results.passed;
  failed += results.failed;
  skippedPerNode.push([label, results.skipped, results.notApplicable]);
  for (const problem of results.problems) process.stdout.write(`✗ ${label}: ${problem}\n`);
  nodeSummaries.push(`${results.failed === 0 ? '✓' : '✗'} ${label}: ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`);
}

/** Runs a command without waiting, so several run at once; resolves to whether it exited 0. */
function runConcurrently(label, command, args, extraEnv = {}) {
  process.stdout.write(`\n▶ ${label}: ${command} ${args.join(' ')}\n`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'inherit', shell: process.platform === 'win32' });
    const finish = (ok) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      timings.push(`${label} ${seconds} s`);
      process.stdout.write(`${ok ? '✓' : '✗'} ${label} (${seconds} s)\n`);
      resolve(ok);
    };
    child.on('error', () => finish(false));
    child.on('close', (status) => finish(status === 0));
  });
}

if (install) {
  const otherResults = mkdtempSync(join(tmpdir(), 'ctx-vitest-'));
  try {
    // Other Node versions come from the package registry: `npx -y node@<major>` runs that version's `node` binary, and
    // vitest forks its workers from it, so the tests run on it too. The probe fetches it and prints its version.
    const others = [];
    for (const major of nodeMajors.filter((candidate) => candidate !== hostMajor)) {
      const probe = spawnSync('npx', ['-y', `node@${major}`, '-p', 'process.version'], { cwd: root, env, encoding: 'utf8', shell: process.platform === 'win32' });
      const version = probe.status === 0 ? probe.stdout.trim() : '';
      if (!version.startsWith(`v${major}.`)) {
        failed += 1;
        const why = `${probe.stdout ?? ''}${probe.stderr ?? ''}${probe.error ? String(probe.error) : ''}`.trim().split('\n').slice(-3).join(' | ');
        nodeSummaries.push(`✗ node ${major}: could not run \`npx -y node@${major}\` (is the package registry reachable?): ${why || 'it printed nothing'}`);
        continue;
      }
      others.push({ major, version, file: join(otherResults, `node-${major}.json`) });
    }
    // A vitest run on this 2-core machine keeps one worker busy (vitest uses cores - 1), so every version runs side by
    // side (one after another, the runs took 6 minutes of CI; side by side, the longest of them and a little more).
    // The other versions print only JSON, so their output does not interleave with this machine's run (their failures
    // are listed from it below). The corpus tests (replays of megabytes of recorded sessions: what the code does, not
    // how Node runs it) run once, on this machine's Node; the other versions run everything else
    // (`CTX_TEST_CORPUS_EVERYWHERE=1` runs them too).
    const corpusEverywhere = process.env.CTX_TEST_CORPUS_EVERYWHERE === '1';
    if (!corpusEverywhere && others.length > 0 && corpusExists) {
      process.stdout.write(`\nThe corpus tests run on node ${hostMajor} only; set CTX_TEST_CORPUS_EVERYWHERE=1 to run them on every version.\n`);
    }
    const runs = others.map(({ major, version, file }) =>
      runConcurrently(
        `tests (node ${version})`,
        'npx',
        ['-y', `node@${major}`, 'node_modules/vitest/vitest.mjs', 'run', '--reporter=json', `--outputFile.json=${file}`],
        corpusEverywhere ? {} : { CTX_CORPUS: join(otherResults, 'no-corpus') },
      ),
    );
    if (nodeMajors.includes(hostMajor)) {
      rmSync(resultsFile, { force: true });
      // This run has the corpus tests besides everything the others run, so it ends last, alone: with vitest's
      // default of cores − 1 workers it would then leave a core idle (about two minutes of a 2-core CI). On a small
      // machine a worker per core keeps every core busy to its end (while the others run, the cores are shared
      // either way); a larger one keeps the default.
      const cores = availableParallelism();
      const workers = others.length > 0 && !corpusEverywhere && cores <= 4 ? [`--maxWorkers=${cores}`] : [];
      runs.push(
        runConcurrently(`tests (node ${process.version})`, 'npx', ['vitest', 'run', ...workers, '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`]),
      );
    }
    await Promise.all(runs);
    if (nodeMajors.includes(hostMajor)) countVitestRun(`node ${hostMajor} (${process.version})`, resultsFile);
    for (const { major, version, file } of others) countVitestRun(`node ${major} (${version})`, file);
  } finally {
    rmSync(otherResults, { recursive: true, force: true });
  }
}

for (const [, ok] of checks) {
  if (ok) passed += 1;
  else failed += 1;
}
process.stdout.write(`\nstatic checks: ${checks.map(([label, ok]) => `${label} ${ok ? 'ok' : 'FAILED'}`).join(', ')}\n`);
process.stdout.write(`times: ${timings.join(', ')}\n`);
for (const summary of nodeSummaries) process.stdout.write(`${summary}\n`);
const skipped = skippedPerNode.reduce((sum, [, count]) => sum + count, 0);
const notApplicable = skippedPerNode.reduce((sum, [, , count]) => sum + count, 0);
const perNode = skippedPerNode.length > 1 ? ` (${skippedPerNode.map(([label, count]) => `${label.split(' (')[0]}: ${count}`).join(', ')})` : '';
const kinds = `${notApplicable} conformance checks that do not apply to a strategy, ${skipped - notApplicable} other`;
const corpusNote = corpusExists
  ? ''
  : ` — the corpus tests were skipped: ${process.env.CTX_CORPUS ? `CTX_CORPUS=${corpusDirectory}` : relative(root, corpusDirectory)} not found; set CTX_CORPUS=/path/to/corpus (see "Corpus" in README.md)`;
process.stdout.write(`${skipped} skipped${perNode}: ${kinds}${corpusNote}\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
