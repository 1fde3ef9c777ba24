import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompressionStrategy } from '@ctx/core';
import { afterAll, describe, expect, it } from 'vitest';
import { demoTranscriptPath } from '../demo-transcript.js';
import { createBaselineStrategy } from './baseline-replay.js';
import { findBenchSessions } from './bench-sessions.js';
import { runBench } from './run-bench.js';
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
    const sessions = await findBenchSessions([await shortTranscript(6)], 1);
    const tokenizer = await createTokenizer('gpt-tokenizer');
    const run = async (warmUpBudgetMilliseconds?: number) => {
      const strategy = countingStrategy();
      await runBench({
        sessions,
        strategies: [{ name: 'counting', create: strategy.create }],
        skipped: [],
        tokenizer,
        runs: 1,
        ...(warmUpBudgetMilliseconds === undefined ? {} : { warmUpBudgetMilliseconds }),
      });
      return strategy.calls();
    };
    const bounded = await run(0);
    const unbounded = await run();
    // Five figures time optimize() (warm, fresh, and one more turn at three sizes). With no budget left, each warms up
    // with the minimum of five calls; with the default budget, a call this cheap warms up 200 times (the most a warm-up
    // runs) — at least for the warm and fresh figures, whose preparation (copying six entries) is quick on any machine.
    expect(unbounded - bounded).toBeGreaterThanOrEqual(2 * (200 - 5));
  }, 120_000);
});
