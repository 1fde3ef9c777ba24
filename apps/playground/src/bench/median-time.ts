import { median } from '../calibration/summary-statistics.js';
import { collectGarbage, collectYoungGarbage } from './collect-garbage.js';

/** Untimed runs before the timed ones: at least this many… */
const warmUpRuns = 5;
/**
 * …and more, up to {@link maximumWarmUpRuns}, until they have run this long: the JIT optimizes a call only after many
 * runs, whatever its length (measured: watermark's `optimize()` after one more turn reads 10–20 µs after five runs,
 * 2–3 µs in steady state; high-density's first `optimize()` of a session about 1.5 ms after ten, 0.9 ms after sixty).
 */
const warmUpMilliseconds = 60;
const maximumWarmUpRuns = 200;
/**
 * The default bound on the warm-up's whole time, preparation included (preparing a fresh copy of a session takes
 * tens of milliseconds, far more than some calls on it).
 */
const defaultWarmUpBudgetMilliseconds = 3_000;

/**
 * Calls shorter than this are timed as the mean of a batch of calls: the median of a few single calls of a few
 * microseconds moves with whatever else the machine did in those instants (one-more-turn cells of 2 µs moved by
 * ±20% between runs).
 */
const batchedBelowMilliseconds = 0.05;
/** A batch of short calls runs about this long… */
const batchMilliseconds = 1;
/** …with at most this many calls, each on its own prepared input. */
const maximumBatch = 200;

/** Runs `run`, awaiting only what is a promise: a synchronous call is timed without a trip through the microtask queue. */
function runOnce<Input>(run: (input: Input) => unknown, input: Input): Promise<void> | undefined {
  const result = run(input);
  return result instanceof Promise ? result.then(() => undefined) : undefined;
}

/** Options of {@link medianTime} and {@link medianMeasure}. */
export interface MedianTimeOptions {
  /**
   * Upper bound on the untimed warm-up, preparation included, in milliseconds (default 3,000; `ctx bench --quick`
   * uses less, and its figures may then include some of the JIT's work).
   */
  readonly warmUpBudgetMilliseconds?: number;
}

/** The untimed runs; returns the mean time of one. */
async function warmUp<Input>(
  prepare: () => Input | Promise<Input>,
  run: (input: Input) => unknown,
  options: MedianTimeOptions,
): Promise<number> {
  const budget = options.warmUpBudgetMilliseconds ?? defaultWarmUpBudgetMilliseconds;
  const began = performance.now();
  let spent = 0;
  let count = 0;
  for (; count < maximumWarmUpRuns; count++) {
    if (count >= warmUpRuns && (spent >= warmUpMilliseconds || performance.now() - began >= budget)) break;
    const input = await prepare();
    // As before a timed call (below), so the warm-up runs in the heap's state the timed runs see: the collection moves
    // what was prepared to the old generation (measured without it here: the first timed calls of high-density's fresh
    // `optimize()` read 5–10× the steady state).
    collectYoungGarbage();
    const started = performance.now();
    const pending = runOnce(run, input);
    if (pending !== undefined) await pending;
    spent += performance.now() - started;
  }
  return spent / count;
}

/**
 * Runs `prepare` then times `run` on what it prepared, `runs` times after untimed warm-up runs (until they have run
 * 60 ms, within a budget), and returns the median in milliseconds. Only `run` is timed, so a measure can start each
 * run from a fresh state (a new strategy, a new counter). The heap is collected whole before the figure; each call
 * timed on its own (and each warm-up run) starts with the young generation collected, so it does not pay for the
 * garbage its preparation left (a session copied and validated: megabytes). A call under 50 µs is timed as the mean
 * of a batch of calls (each on its own prepared input, about 1 ms of calls in all).
 *
 * @param runs - How many timed runs (at least 1).
 * @param prepare - Builds the input of one run (maybe asynchronously), untimed.
 * @param run - The work measured.
 * @param options - The warm-up's budget.
 */
export async function medianTime<Input>(
  runs: number,
  prepare: () => Input | Promise<Input>,
  run: (input: Input) => unknown,
  options: MedianTimeOptions = {},
): Promise<number> {
  // What earlier figures left is collected first. Then untimed runs, so the timed ones do not pay for compiling and
  // optimizing the code they run: an agent loop calls the same code every turn, and a few warm-up runs leave it
  // half-optimized (medians 1.5–5× the steady state).
  collectGarbage();
  const typical = await warmUp(prepare, run, options);
  const batch = typical < batchedBelowMilliseconds ? Math.min(maximumBatch, Math.ceil(batchMilliseconds / Math.max(typical, 0.001))) : 1;
  const times: number[] = [];
  for (let index = 0; index < Math.max(1, runs); index++) {
    let spent = 0;
    // Each call right after its own preparation, as in an agent loop: preparing a batch first would interleave
    // conversations, and a strategy that remembers the last conversation it saw (keyed by its first entry, which
    // every prepared copy shares) would be timed on another one's memory.
    for (let call = 0; call < batch; call++) {
      const input = await prepare();
      if (batch === 1) collectYoungGarbage();
      const started = performance.now();
      const pending = runOnce(run, input);
      if (pending !== undefined) await pending;
      spent += performance.now() - started;
    }
    times.push(spent / batch);
  }
  return median(times);
}

/**
 * Like {@link medianTime}, for a figure the run reports itself (e.g. time spent inside one dependency): `run` returns
 * the value, after the same untimed warm-up runs, each measured run starting with the young generation collected.
 *
 * @param runs - How many measured runs (at least 1).
 * @param prepare - Builds the input of one run.
 * @param run - Does the work and returns the value measured.
 * @param options - The warm-up's budget.
 * @returns The median value.
 */
export async function medianMeasure<Input>(
  runs: number,
  prepare: () => Input,
  run: (input: Input) => number | Promise<number>,
  options: MedianTimeOptions = {},
): Promise<number> {
  collectGarbage();
  await warmUp(prepare, run, options);
  const values: number[] = [];
  for (let index = 0; index < Math.max(1, runs); index++) {
    const input = prepare();
    collectYoungGarbage();
    values.push(await run(input));
  }
  return median(values);
}
