import { median } from '../calibration/summary-statistics.js';

/** Untimed runs before the timed ones. */
const warmUpRuns = 5;

/**
 * Runs `prepare` then times `run` on what it prepared, `runs` times after five untimed warm-up runs, and returns the median in milliseconds. Only
 * `run` is timed, so a measure can start each run from a fresh state (a new strategy, a new counter).
 *
 * @param runs - How many timed runs (at least 1).
 * @param prepare - Builds the input of one run, untimed.
 * @param run - The work measured.
 */
export async function medianTime<Input>(runs: number, prepare: () => Input, run: (input: Input) => unknown): Promise<number> {
  // Untimed runs first, so the timed ones do not pay for compiling and optimizing the code they run: an agent loop
  // calls the same code every turn, and a single warm-up leaves it half-optimized (medians 2–5× the steady state).
  for (let index = 0; index < warmUpRuns; index++) await run(prepare());
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
 * the value, after the same five untimed warm-up runs.
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
  for (let index = 0; index < warmUpRuns; index++) await run(prepare());
  const values: number[] = [];
  for (let index = 0; index < Math.max(1, runs); index++) values.push(await run(prepare()));
  return median(values);
}
