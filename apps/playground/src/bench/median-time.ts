import { median } from '../calibration/summary-statistics.js';

/**
 * Runs `prepare` then times `run` on what it prepared, `runs` times after one untimed warm-up, and returns the median in milliseconds. Only
 * `run` is timed, so a measure can start each run from a fresh state (a new strategy, a new counter).
 *
 * @param runs - How many timed runs (at least 1).
 * @param prepare - Builds the input of one run, untimed.
 * @param run - The work measured.
 */
export async function medianTime<Input>(runs: number, prepare: () => Input, run: (input: Input) => unknown): Promise<number> {
  // One untimed run first, so the first timed one does not pay for compiling the code it runs.
  await run(prepare());
  const times: number[] = [];
  for (let index = 0; index < Math.max(1, runs); index++) {
    const input = prepare();
    const started = performance.now();
    await run(input);
    times.push(performance.now() - started);
  }
  return median(times);
}
