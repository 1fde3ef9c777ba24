/** One timed run of a replay: its wall time and the tokenization pass measured right before it. */
export interface PassedRun {
  readonly milliseconds: number;
  /** Index, in the session's passes, of the pass measured right before this run; the next one was measured after it. */
  readonly passBefore: number;
  /** Set when the run failed; its time is then not a figure. */
  readonly error?: string;
}

/** A row's runs divided by their passes. */
export interface PairedRuns<Run extends PassedRun> {
  /** The run reported for the row: the first failed one, or else the one of median ratio (the lower of two middles). */
  readonly reported: Run & { readonly ratio: number };
  /** Every successful run's ratio, in run order. */
  readonly runRatios: readonly number[];
}

/**
 * Divides each run's time by the mean of the two tokenization passes measured on either side of it, so both sides
 * of a ratio see the same machine. On a shared machine whose speed drifts from minute to minute, dividing a row's
 * median run by the median of all the session's passes moved a cell by more than a goal's margin between two runs of
 * the bench on the same code; a run and the passes around it are seconds apart.
 *
 * @param runs - A row's runs in order (a failed run ends the row).
 * @param passes - The session's passes in the order measured; every run's `passBefore + 1` must be one of them.
 * @returns The reported run with its ratio and every successful run's ratio; undefined when there are no runs.
 * @example
 * ```ts
 * pairWithPasses([{ milliseconds: 120, passBefore: 0 }], [90, 110]).reported.ratio; // 1.2
 * ```
 */
export function pairWithPasses<Run extends PassedRun>(runs: readonly Run[], passes: readonly number[]): PairedRuns<Run> | undefined {
  const paired = runs.map((run) => {
    const before = passes[run.passBefore];
    const after = passes[run.passBefore + 1];
    if (before === undefined || after === undefined) {
      throw new RangeError(`Expected a pass on either side of the run at pass ${run.passBefore}, found ${passes.length} passes`);
    }
    return { ...run, ratio: (2 * run.milliseconds) / (before + after) };
  });
  const succeeded = paired.filter((run) => run.error === undefined);
  const byRatio = [...succeeded].sort((a, b) => a.ratio - b.ratio);
  const reported = paired.find((run) => run.error !== undefined) ?? byRatio[Math.floor((byRatio.length - 1) / 2)];
  return reported === undefined ? undefined : { reported, runRatios: succeeded.map((run) => run.ratio) };
}
