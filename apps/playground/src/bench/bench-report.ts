import type { BenchPart } from './bench-parts.js';
import type { BenchSource } from './bench-sessions.js';

/** A figure's target from issue 18: met when the value, rounded to two decimals, is at most `max`. */
export interface BenchGoal {
  /** As printed, e.g. `≤ 1.2×`. */
  readonly text: string;
  readonly max: number;
}

/** How a figure's values read. */
export type BenchUnit = 'ratio' | 'ms' | 'MB';

/** One value of a figure. `value` is null when it could not be measured (`note` says why). */
export interface BenchCell {
  readonly column: string;
  readonly value: number | null;
  /** Whether the value meets the figure's goal; absent when the figure has no goal or there is no value. */
  readonly met?: boolean;
  /** Why there is no value: a strategy without `optimize()`, or what failed. */
  readonly note?: string;
  /** True when the measurement failed (a replay or call threw; the reason is on stderr), not when it does not apply. */
  readonly failed?: true;
  /**
   * Half the range of the values the figure's runs gave (the replay ratio, when a replay ran more than once): how far
   * the same measurement moves between runs on this machine. `value` is the median run's (for replay ratios, the run
   * of median ratio, each run divided by the tokenization passes measured on either side of it).
   */
  readonly spread?: number;
}

/** One row of a figure: a strategy or preset, a process, or the baseline replay. */
export interface BenchRow {
  readonly name: string;
  /**
   * True for the baseline replay (nothing compressed: the history service and orchestrator alone), printed for
   * reference beside the strategies and never held to a goal.
   */
  readonly reference?: boolean;
  readonly cells: readonly BenchCell[];
}

/** One figure of the table, with its goal. */
export interface BenchFigure {
  /** Stable identifier, e.g. `replay-vs-tokenization`. */
  readonly id: string;
  /** The part of the run that measures it (`ctx bench --only`). */
  readonly part: BenchPart;
  readonly title: string;
  readonly unit: BenchUnit;
  /** Null for figures printed for reference only. */
  readonly goal: BenchGoal | null;
  readonly columns: readonly string[];
  /**
   * Columns printed for reference beside the measured ones and held to no goal: e.g. the part of a fresh
   * `compress()` spent tokenizing the text it wrote, the floor under the fresh figure.
   */
  readonly referenceColumns?: readonly string[];
  readonly rows: readonly BenchRow[];
}

/** A session of the run, as the report describes it. */
export interface BenchSessionSummary {
  /** Short name used as a column title: S1, S2, … */
  readonly key: string;
  readonly label: string;
  readonly bytes: number;
  readonly entries: number;
  /** Characters one tokenization pass tokenizes. */
  readonly characters: number;
  readonly tokens: number;
  /** The context window the replays use. */
  readonly window: number;
  /** One tokenization pass, in milliseconds (the median of the runs). */
  readonly tokenizationMs: number;
  /**
   * The fastest and the slowest of the session's passes, in milliseconds: how far the machine's speed moved while the
   * session was measured (every figure of a run shares the machine with whatever else runs on it).
   */
  readonly tokenizationRangeMs: { readonly fastest: number; readonly slowest: number };
}

/** A strategy or preset the run did not measure, and why. */
export interface BenchSkipped {
  readonly name: string;
  readonly reason: string;
}

/** Everything `ctx bench` measured; `--json` prints exactly this. */
export interface BenchReport {
  readonly tokenizer: string;
  readonly source: BenchSource;
  readonly sessions: readonly BenchSessionSummary[];
  /** What was measured, in order: strategies, then presets. */
  readonly measured: readonly string[];
  readonly skipped: readonly BenchSkipped[];
  /** The parts of the run measured (every part unless `--only` picked some), in the order they ran. */
  readonly parts: readonly BenchPart[];
  /** The figures those parts measure, in the order of issue 18's table. */
  readonly figures: readonly BenchFigure[];
  /** The bench process's peak resident set size, in bytes. */
  readonly peakRssBytes: number;
  /** How many values miss their goal. */
  readonly missed: number;
}

/** A cell's note when its measurement failed (see {@link benchFailure}). */
export interface BenchFailure {
  readonly failure: string;
}

/**
 * Marks a missing value as a failed measurement rather than one that does not apply.
 *
 * @param note - What the cell says instead of a value.
 * @returns The note for {@link benchCell}.
 */
export function benchFailure(note: string): BenchFailure {
  return { failure: note };
}

/**
 * A cell of a figure, with `met` set against the figure's goal.
 *
 * @param column - The column title.
 * @param value - The measured value; null or undefined when not measured.
 * @param goal - The figure's goal, or null.
 * @param note - Why there is no value: a string when it does not apply, a {@link benchFailure} when the measure failed.
 */
export function benchCell(column: string, value: number | null | undefined, goal: BenchGoal | null, note?: string | BenchFailure): BenchCell {
  if (value === null || value === undefined || !Number.isFinite(value)) {
    if (note === undefined) return { column, value: null };
    return typeof note === 'string' ? { column, value: null, note } : { column, value: null, note: note.failure, failed: true };
  }
  return { column, value, ...(goal === null ? {} : { met: Math.round(value * 100) / 100 <= goal.max }) };
}
