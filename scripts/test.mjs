#!/usr/bin/env node
// The one test command (`npm test`): installs, builds, type-checks, lints, builds the API docs, checks changesets,
// runs every vitest test, and ends with the line `N passed, N failed` (each static check counts as one test).
// Works from a fresh clone with only Node 20 + npm.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', npm_config_update_notifier: 'false', FORCE_COLOR: '0' };
const resultsFile = `${root}.vitest-results.json`;

function run(label, command, args) {
  process.stdout.write(`\n▶ ${label}: ${command} ${args.join(' ')}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit', shell: process.platform === 'win32' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  process.stdout.write(`${ok ? '✓' : '✗'} ${label} (${seconds} s)\n`);
  return ok;
}

const checks = [];
const install = run('install', 'npx', ['-y', 'pnpm@10.34.9', 'install', '--frozen-lockfile']);
checks.push(['install', install]);
if (install) {
  checks.push(['build', run('build', 'npx', ['turbo', 'run', 'build', '--output-logs=errors-only'])]);
  // One turbo run for both, so type-checking and linting of different packages overlap.
  checks.push([
    'typecheck and lint',
    run('typecheck and lint', 'npx', ['turbo', 'run', 'typecheck', 'lint', '--continue', '--output-logs=errors-only']),
  ]);
  checks.push(['docs', run('docs', 'npx', ['typedoc', '--logLevel', 'Warn'])]);
  if (existsSync(`${root}.git`)) {
    checks.push(['changesets', run('changesets', 'npx', ['changeset', 'status'])]);
  }
}

let passed = 0;
let failed = 0;
if (install) {
  rmSync(resultsFile, { force: true });
  run('tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`]);
  if (existsSync(resultsFile)) {
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    passed += results.numPassedTests;
    failed += results.numFailedTests;
    // A test file that fails to load has no failed tests of its own; count it so the run is red.
    const brokenFiles = results.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0);
    failed += brokenFiles.length;
    for (const file of brokenFiles) process.stdout.write(`✗ could not run ${file.name}: ${file.message}\n`);
  } else {
    failed += 1;
    process.stdout.write('✗ vitest wrote no results\n');
  }
}

for (const [, ok] of checks) {
  if (ok) passed += 1;
  else failed += 1;
}
process.stdout.write(`\nstatic checks: ${checks.map(([label, ok]) => `${label} ${ok ? 'ok' : 'FAILED'}`).join(', ')}\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
