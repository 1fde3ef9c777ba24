import { median } from '../calibration/summary-statistics.js';

/** Untimed runs before the timed ones: at least this many… */
const warmUpRuns = 5;
/**
 * …and more, up to {@link maximumWarmUpRuns}, until they have run this long: a call of a few microseconds is still
 * compiled by the JIT's lower tiers after five runs (measured: watermark's `optimize()` after one more turn reads 10–20
 * µs after five, 2–3 µs in steady state), while a call of milliseconds is optimized by then.
 */
const warmUpMilliseconds = 20;
const maximumWarmUpRuns = 200;
/** A bound on the warm-up's whole time, preparation included (preparing a run can cost far more than the run). */
const warmUpBudgetMilliseconds = 250;

async function warmUp<Input>(prepare: () => Input, run: (input: Input) => unknown): Promise<void> {
  const began = performance.now();
  let spent = 0;
  for (let index = 0; index < maximumWarmUpRuns; index++) {
    if (index >= warmUpRuns && (spent >= warmUpMilliseconds || performance.now() - began >= warmUpBudgetMilliseconds)) break;
    const input = prepare();
    const started = performance.now();
    await run(input);
    spent += performance.now() - started;
  }
}

/**
 * Runs `prepare` then times `run` on what it prepared, `runs` times after untimed warm-up runs (five, or more for a
 * call of microseconds), and returns the median in milliseconds. Only `run` is timed, so a measure can start each
 * run from a fresh state (a new strategy, a new counter).
 *
 * @param runs - How many timed runs (at least 1).
 * @param prepare - Builds the input of one run, untimed.
 * @param run - The work measured.
 */
export async function medianTime<Input>(runs: number, prepare: () => Input, run: (input: Input) => unknown): Promise<number> {
  // Untimed runs first, so the timed ones do not pay for compiling and optimizing the code they run: an agent loop
  // calls the same code every turn, and a single warm-up leaves it half-optimized (medians 2–5× the steady state).
  await warmUp(prepare, run);
  const times: number[] = [];
  for (let index = 0; index < Math.max(1, runs); index++) {
    const input = prepare();
    const started = performance.now();
    await run(input);
    times.push(performance.now() - started);
  }
  return median(times);
}

/**
 * Like {@link medianTime}, for a figure the run reports itself (e.g. time spent inside one dependency): `run` returns
 * the value, after the same untimed warm-up runs.
 *
 * @param runs - How many measured runs (at least 1).
 * @param prepare - Builds the input of one run.
 * @param run - Does the work and returns the value measured.
 * @returns The median value.
 */
export async function medianMeasure<Input>(
  runs: number,
  prepare: () => Input,
  run: (input: Input) => number | Promise<number>,
): Promise<number> {
  await warmUp(prepare, run);
  const values: number[] = [];
  for (let index = 0; index < Math.max(1, runs); index++) values.push(await run(prepare()));
  return median(values);
}
