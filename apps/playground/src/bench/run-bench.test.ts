import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompressionStrategy } from '@ctx/core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { demoTranscriptPath } from '../demo-transcript.js';
import { createBaselineStrategy } from './baseline-replay.js';
import { findBenchSessions } from './bench-sessions.js';
import { countBenchSteps, runBench } from './run-bench.js';
import { createTokenizer } from '../tokenizers.js';

/** A strategy whose `optimize()` does nothing but count its calls. */
function countingStrategy(): { readonly create: () => CompressionStrategy; readonly calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    create: () => ({
      ...createBaselineStrategy(),
      name: 'counting',
      optimize: () => {
        calls++;
        return { removals: [], replacements: new Map(), metadata: {} };
      },
    }),
  };
}

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

/** The demo transcript's first `entries` entries, written to a file of their own: a session every measure runs fast on. */
async function shortTranscript(entries: number): Promise<string> {
  const demo = JSON.parse(await readFile(demoTranscriptPath, 'utf8')) as { readonly history: readonly unknown[] };
  const directory = await mkdtemp(join(tmpdir(), 'ctx-run-bench-'));
  directories.push(directory);
  const file = join(directory, 'short.json');
  await writeFile(file, JSON.stringify({ ...demo, history: demo.history.slice(0, entries) }));
  return file;
}

describe('runBench', () => {
  it("should bound the call figures' untimed warm-up by the budget it is given (what keeps `ctx bench --quick` short)", async () => {
    // Two entries: every fresh compress() warm-up run counts its session with a new token counter, and the generous
    // run below makes 200 of them per figure (with the first six entries this test took 5 s alone and 18 s in the whole
    // suite; with two, 1.3 s alone).
    const sessions = await findBenchSessions([await shortTranscript(2)], 1);
    const tokenizer = await createTokenizer('gpt-tokenizer');
    const run = async (warmUpBudgetMilliseconds?: number) => {
      const strategy = countingStrategy();
      await runBench({
        sessions,
        strategies: [{ name: 'counting', create: strategy.create }],
        skipped: [],
        tokenizer,
        runs: 1,
        // The warm and fresh optimize() and compress() figures (one more turn warms up the same way, on histories of
        // 150 to 600 entries, slower to prepare; the replays and cold processes have no warm-up).
        parts: ['calls'],
        ...(warmUpBudgetMilliseconds === undefined ? {} : { warmUpBudgetMilliseconds }),
      });
      return strategy.calls();
    };
    // A clock that moves 0.1 ms each time it is read, whatever the machine is doing: the warm-up stops on its budget or
    // on 60 ms of runs, and on the real clock a loaded CI machine reached 60 ms before the 200th run of even this call
    // (its runs' collections and preemptions land in the timed spans), so the test failed there. Here 200 runs add up
    // to 20 ms, and a call of 0.1 ms is timed on its own rather than in a batch of 200 (each on a fresh session).
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 0.1));
    try {
      const bounded = await run(0);
      const generous = await run(600_000);
      // Two figures time optimize() (warm and fresh). With no budget left, each warms up with the minimum of five
      // calls; with room, a call this cheap warms up 200 times (the most a warm-up runs). The timed calls are the same
      // in both runs.
      expect(generous - bounded).toBe(2 * (200 - 5));
    } finally {
      vi.restoreAllMocks();
    }
  }, 120_000);

  it('should measure only the parts it is given, report only their figures, and take exactly the steps it counts', async () => {
    const sessions = await findBenchSessions([await shortTranscript(6)], 1);
    const tokenizer = await createTokenizer('gpt-tokenizer');
    const measure = async (parts: readonly ('replay' | 'middleware' | 'calls' | 'turn' | 'cold')[]) => {
      const strategy = countingStrategy();
      const steps: string[] = [];
      const { report, failures } = await runBench({
        sessions,
        strategies: [{ name: 'counting', create: strategy.create }],
        skipped: [],
        tokenizer,
        runs: 1,
        warmUpBudgetMilliseconds: 0,
        parts,
        onStep: (label) => steps.push(label),
      });
      expect(failures).toEqual([]);
      expect(steps).toHaveLength(countBenchSteps(1, 1, parts));
      return { report, steps, calls: strategy.calls() };
    };
    const calls = await measure(['calls']);
    expect(calls.report.parts).toEqual(['calls']);
    expect(calls.report.figures.map((figure) => figure.id)).toEqual(['optimize', 'compress']);
    expect(calls.steps).toEqual(['counting: optimize and compress']);
    // The session is still described, with the time of a tokenization pass.
    expect(calls.report.sessions[0]?.tokenizationMs).toBeGreaterThan(0);
    const replays = await measure(['middleware', 'replay']);
    expect(replays.report.parts).toEqual(['replay', 'middleware']);
    expect(replays.report.figures.map((figure) => figure.id)).toEqual([
      'replay-vs-tokenization',
      'turn-p50',
      'turn-p99',
      'turn-overhead-p50',
      'turn-overhead-p99',
      'middleware-overhead-p50',
      'middleware-overhead-p99',
      'characters-tokenized',
      'peak-memory',
    ]);
    // optimize() ran only in the replays: before each model call of the one replay.
    expect(replays.calls).toBeGreaterThan(0);
    expect(replays.calls).toBeLessThan(calls.calls);
  }, 120_000);
});
