#!/usr/bin/env node
/* global structuredClone */
// Instructions a replay executes, counted by valgrind's cachegrind: a measure of work that a busy machine does not
// move. On a shared machine a tokenization pass of S1 takes 60 ms in one minute and 120 in the next, so a change
// worth a few percent of a replay cannot be timed; counted, the same replay gives nearly the same figure (below).
// Use it to decide whether a performance change does less work (run it before and after); time it with `ctx bench`
// when the machine is quiet. Instructions are not time (a cache miss costs no instruction), so the figures here
// are not the goals.
//
//   node scripts/count-instructions.mjs [--sessions 2] [--strategies high-density,balanced] [--replays 2] [--warm-up 1]
//
// For each of the largest corpus sessions (as `ctx bench` picks them) prints the instructions of one tokenization
// pass and, for the baseline (nothing compressed) and each strategy or preset, the instructions per replay and their
// ratio to the pass. Each figure is (a process with W + N replays) − (one with W), divided by N: the W warm-up
// replays (1 by default) take the compiling of the code out, as `ctx bench` does; like its clock, the figure leaves
// out the copy of each entry a replay makes right before adding it. Run as `countInstructions` runs it, one process
// gives the same count within about ±0.2% from run to run (three runs of S2's one-pass process: 7,502–7,534 million):
// divided by N = 2 replays, about ±15 million a replay (±1.3% of S2's pass, ±3% of S1's), though some rows move
// more (S2's baseline: 1,204–1,480 million over four runs; 1,311 and 1,407 in two after replays began copying each
// entry as it is added, while the other rows held within 5 million). Use more replays (--replays 4) to decide a
// change worth less, and repeat a run before trusting a small difference. The copy and the pass, which every figure
// is compared with, are cheap and measured over 10 repeats, so they add almost nothing.
// Needs valgrind, setarch and the built packages (`npm run build`); under valgrind a replay is about 40× slower.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism, machine } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const playground = new URL('../apps/playground/dist/', import.meta.url);
const self = fileURLToPath(import.meta.url);
const largestDefaultWindow = 200_000;

let values;
try {
  ({ values } = parseArgs({
    options: {
      sessions: { type: 'string', default: '2' },
      strategies: { type: 'string', default: 'high-density,watermark' },
      replays: { type: 'string', default: '2' },
      'warm-up': { type: 'string', default: '1' },
      child: { type: 'string' },
    },
  }));
} catch (error) {
  console.error(`count-instructions: ${error.message}`);
  process.exit(2);
}

const load = (path) => import(new URL(path, playground).href);
const { resolveStrategies } = await load('resolve-strategies.js');
const { findBenchSessions } = await load('bench/bench-sessions.js');

/** The factory of strategy `name`, else of preset `name`; rejects when it is neither. */
const resolveByName = (name) =>
  resolveStrategies({ plugin: [], set: [], strategies: name })
    .catch(() => resolveStrategies({ plugin: [], set: [], presets: name }))
    .then(([create]) => create);

if (values.child !== undefined) {
  // In a child, under valgrind: `<session index>:<what>:<runs>`, `what` being pass, clone (what a replay does outside
  // its clock: a copy of every entry, each made right before it is added), baseline or a strategy's or preset's name.
  const [index, what, count] = values.child.split(':');
  const { createTokenizer } = await load('tokenizers.js');
  const { measureTokenizationPass } = await load('bench/tokenization-pass.js');
  const { replaySession } = await load('bench/replay-session.js');
  const { createBaselineStrategy, baselineWindow } = await load('bench/baseline-replay.js');
  const tokenizer = await createTokenizer('gpt-tokenizer');
  const { sessions } = await findBenchSessions([], Number(index) + 1);
  const session = sessions[Number(index)];
  // One pass in every process, replays or not: the window, as `ctx bench` sets it, and the tokenizer's tables read.
  const window = Math.min(largestDefaultWindow, Math.max(1, measureTokenizationPass(session, tokenizer).tokens));
  const create =
    what === 'baseline' ? createBaselineStrategy : what === 'pass' || what === 'clone' ? undefined : await resolveByName(what);
  for (let run = 0; run < Number(count); run++) {
    if (what === 'pass') measureTokenizationPass(session, tokenizer);
    else if (what === 'clone') session.history.map((entry) => structuredClone(entry));
    else if (create !== undefined)
      await replaySession({ session, createStrategy: create, tokenizer, contextLimit: what === 'baseline' ? baselineWindow : window });
  }
  process.exit(0);
}

const replays = Number(values.replays);
const sessionCount = Number(values.sessions);
const warmUp = Number(values['warm-up']);
if (![replays, sessionCount].every((value) => Number.isInteger(value) && value >= 1) || !(Number.isInteger(warmUp) && warmUp >= 0)) {
  console.error(
    `count-instructions: expected --replays and --sessions as whole numbers ≥ 1 and --warm-up ≥ 0, got ${values.replays}, ${values.sessions} and ${values['warm-up']}`,
  );
  process.exit(2);
}
const names = ['baseline', ...values.strategies.split(',').filter((name) => name !== '')];
// Unknown names and missing sessions fail here, in seconds, not in a child minutes into the run.
for (const name of names.slice(1)) {
  await resolveByName(name).catch(() => {
    console.error(`count-instructions: "${name}" is neither a strategy nor a preset (see \`ctx strategies\` and \`ctx presets\`)`);
    process.exit(2);
  });
}
const { source, sessions } = await findBenchSessions([], sessionCount);
if (sessions.length < sessionCount) {
  console.error(
    `count-instructions: --sessions ${sessionCount} asks for more sessions than the ${source === 'demo' ? 'built-in demo (the corpus was not found: ../shared/corpus or CTX_CORPUS)' : 'corpus'} has (${sessions.length})`,
  );
  process.exit(2);
}
if (spawnSync('valgrind', ['--version']).status !== 0 || spawnSync('setarch', ['--version']).status !== 0) {
  console.error('count-instructions: needs valgrind and setarch (Debian: apt-get install valgrind util-linux)');
  process.exit(2);
}

/** The children under way, stopped when one fails. */
const running = new Set();

/** Instructions of one child process, read from cachegrind's summary. */
function countInstructions(child) {
  return new Promise((resolve, reject) => {
    // Address randomization off (setarch -R), V8 in its predictable mode (one thread) with a fixed garbage
    // collection schedule and no incremental marking (both otherwise follow the clock), fixed seeds: with V8's
    // defaults two runs of the same replay differed by up to 5%; so run, a process's count moves by about ±0.2%.
    const args = [
      machine(),
      '-R',
      'valgrind',
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      '--smc-check=all-non-file',
      process.execPath,
      '--predictable',
      '--predictable-gc-schedule',
      '--no-incremental-marking',
      '--hash-seed=1',
      '--random-seed=1',
      self,
      '--child',
      child,
    ];
    const run = spawn('setarch', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    running.add(run);
    let stderr = '';
    run.stderr.on('data', (chunk) => (stderr += chunk));
    run.on('close', (code) => {
      running.delete(run);
      const found = /I\s+refs:\s+([\d,]+)/.exec(stderr);
      if (code !== 0 || found === null) reject(new Error(`${child}: exit ${code}\n${stderr.slice(-2000)}`));
      else resolve(Number(found[1].replaceAll(',', '')));
    });
  });
}

/** Runs the jobs a core each. */
async function runAll(jobs) {
  const results = new Map();
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      results.set(job, await countInstructions(job));
    }
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), jobs.length) }, worker));
  return results;
}

/**
 * How many times a process repeats `what` beyond its warm-up: a replay `--replays` times; a pass or a copy of the
 * entries, each a small part of a replay's cost, 10 times, so that the process's own spread, divided by 10, barely
 * moves the figures every replay is compared with or reduced by.
 */
const repeatsOf = (what) => (what === 'pass' || what === 'clone' ? 10 : replays);

const jobs = [];
for (let index = 0; index < sessionCount; index++) {
  for (const what of ['pass', 'clone', ...names]) jobs.push(`${index}:${what}:${warmUp}`, `${index}:${what}:${warmUp + repeatsOf(what)}`);
}
const started = Date.now();
const counted = await runAll(jobs).catch((error) => {
  for (const child of running) child.kill();
  console.error(`count-instructions: a run under valgrind failed: ${error.message}`);
  process.exit(1);
});
const millions = (instructions) => `${(instructions / 1e6).toFixed(0)} M`;
for (let index = 0; index < sessionCount; index++) {
  const per = (what) => (counted.get(`${index}:${what}:${warmUp + repeatsOf(what)}`) - counted.get(`${index}:${what}:${warmUp}`)) / repeatsOf(what);
  const pass = per('pass');
  const clone = per('clone');
  console.log(`S${index + 1}: ${sessions[index]?.label ?? ''}`);
  console.log(
    `  one tokenization pass ${millions(pass)} instructions; per replay after ${warmUp} in the same process, without the ${millions(clone)} of copying the entries (outside its clock), and ÷ pass:`,
  );
  for (const name of names) {
    const replay = per(name) - clone;
    console.log(`    ${name.padEnd(22)} ${millions(replay).padStart(8)}  ${(replay / pass).toFixed(3)}×`);
  }
}
console.log(`(${jobs.length} processes under valgrind, ${((Date.now() - started) / 1000).toFixed(0)} s)`);
