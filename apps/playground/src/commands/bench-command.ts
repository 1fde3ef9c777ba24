import { builtInPresets } from '@ctx/presets';
import { CliError, type CliIo } from '../cli-io.js';
import { findBenchSessions } from '../bench/bench-sessions.js';
import type { BenchPart } from '../bench/bench-parts.js';
import type { BenchSkipped } from '../bench/bench-report.js';
import { formatBenchReport } from '../bench/format-bench-report.js';
import { countBenchSteps, runBench, type BenchStrategy } from '../bench/run-bench.js';
import { createProgress } from '../progress.js';
import { resolveStrategies, type StrategyCommandOptions } from '../resolve-strategies.js';
import { escapeForTerminal } from '../terminal-text.js';
import { createTokenizer } from '../tokenizers.js';

/** Options of `ctx bench`, as parsed from the command line. */
export interface BenchCommandOptions extends StrategyCommandOptions {
  /** How many sessions to replay (largest first). @default 3, or 1 with `quick` */
  readonly sessions?: number;
  /** Timed runs of each replay, call and cold process; medians are reported. @default 3, or 1 with `quick` */
  readonly runs?: number;
  /** The replays' context window; by default each session's own size in tokens, at most 200,000. */
  readonly window?: number;
  /** One session, one run of each measure and a short warm-up before each call figure: a smoke run in seconds. */
  readonly quick: boolean;
  /** The parts of the run to measure (`--only`); every part by default. */
  readonly only?: readonly BenchPart[];
  readonly json: boolean;
}

const needsModel = 'needs a model to summarize; ctx bench measures mechanical work only';

/** `--quick` bounds each call figure's warm-up to this (see `medianTime`): a smoke run, not figures to quote. */
const quickWarmUpBudgetMilliseconds = 100;

/**
 * Every mechanical strategy and preset the options name — by default every known strategy and every built-in preset —
 * and those that need a model, to list as not measured.
 */
async function selectBenchStrategies(options: BenchCommandOptions): Promise<{ measured: BenchStrategy[]; skipped: BenchSkipped[] }> {
  const bothDefault = options.strategies === undefined && options.presets === undefined;
  const factories = bothDefault
    ? [
        ...(await resolveStrategies({ ...options, presets: undefined })),
        ...(await resolveStrategies({ ...options, presets: Object.keys(builtInPresets).join(',') })),
      ]
    : await resolveStrategies(options);
  const measured: BenchStrategy[] = [];
  const skipped: BenchSkipped[] = [];
  for (const create of factories) {
    const probe = create();
    if (probe.requiresLLM) skipped.push({ name: probe.name, reason: needsModel });
    else if (!measured.some((strategy) => strategy.name === probe.name)) measured.push({ name: probe.name, create });
  }
  return { measured, skipped };
}

/**
 * `ctx bench [paths…]`: replays the largest corpus sessions (or the given transcripts, or the demo transcript when
 * there is no corpus) entry by entry through the history service and the orchestrator with every mechanical strategy
 * and preset, and prints issue 18's figures — replay ÷ one tokenization pass, per-turn p50 / p99 with and without the
 * tokenizer, the AI SDK middleware's time per model call, characters tokenized ÷ session characters, optimize and
 * compress on the largest session (warm and fresh, with the fresh compress's tokenizer share beside it), one more turn
 * at 150 / 300 / 600 entries, cold CLI ÷ lower bound, peak memory — each beside its goal (`only`: the figures of the
 * parts it names).
 *
 * @returns 0, or 1 when a replay or measure failed (the report is still printed, the failure on stderr).
 * @throws `UsageError` for unknown strategies or presets (exit 2); `TranscriptLoadError` or `CliError` for paths that
 *   hold no usable conversation (exit 1).
 */
export async function runBenchCommand(paths: readonly string[], options: BenchCommandOptions, io: CliIo): Promise<number> {
  const { measured, skipped } = await selectBenchStrategies(options);
  const sessions = await findBenchSessions(paths, options.sessions ?? (options.quick ? 1 : 3));
  if (sessions.sessions.length === 0) {
    throw new CliError(`bench: expected a conversation with entries in ${paths.join(', ') || 'the demo transcript'}, found none; pass transcripts that hold one`);
  }
  const tokenizer = await createTokenizer('gpt-tokenizer');
  const progress = createProgress(countBenchSteps(sessions.sessions.length, measured.length, options.only));
  const { report, failures } = await runBench({
    sessions,
    strategies: measured,
    skipped,
    tokenizer,
    runs: options.runs ?? (options.quick ? 1 : 3),
    // A quick run keeps each call's warm-up short: its call figures may still include some of the JIT's work.
    ...(options.quick ? { warmUpBudgetMilliseconds: quickWarmUpBudgetMilliseconds } : {}),
    ...(options.window === undefined ? {} : { window: options.window }),
    ...(options.only === undefined ? {} : { parts: options.only }),
    onStep: (label) => progress.advance(label),
  });
  progress.done();
  io.stdout(options.json ? JSON.stringify(report, null, 2) : formatBenchReport(report));
  for (const failure of failures) io.stderr(escapeForTerminal(`ctx: bench: ${failure}`));
  return failures.length === 0 ? 0 : 1;
}
