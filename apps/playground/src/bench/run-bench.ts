import type { CompressionStrategy, Tokenizer } from '@ctx/core';
import { quantile, median } from '../calibration/summary-statistics.js';
import { baselineRowName, baselineWindow, createBaselineStrategy } from './baseline-replay.js';
import { benchGoals } from './bench-goals.js';
import { benchParts, type BenchPart } from './bench-parts.js';
import { collectGarbage } from './collect-garbage.js';
import { benchCell, benchFailure, type BenchFigure, type BenchReport, type BenchRow, type BenchSessionSummary, type BenchSkipped } from './bench-report.js';
import type { BenchSessions } from './bench-sessions.js';
import { coldCliUnavailable, measureColdCli, type ColdCliTimes } from './measure-cold-cli.js';
import { measureOneMoreTurn, oneMoreTurnHistory, oneMoreTurnSizes } from './measure-one-more-turn.js';
import { measureStrategyCalls, type StrategyCallTimes } from './measure-strategy-calls.js';
import { replaySession, type ReplayMeasurement } from './replay-session.js';
import { replayThroughMiddleware } from './measure-middleware-replay.js';
import { measureTokenizationPass } from './tokenization-pass.js';
import { pairWithPasses, type PassedRun } from './paired-ratios.js';

/** A row's reported replay on one session (see {@link pairWithPasses}), with every run's ratio. */
type PairedReplay = ReplayMeasurement & {
  readonly sessionCharacters: number;
  /** The reported run's replay time ÷ its own tokenization passes. */
  readonly ratio: number;
  /** Every successful run's ratio, in run order. */
  readonly runRatios: readonly number[];
};

/** A strategy or preset to measure: its name and a factory of fresh instances. */
export interface BenchStrategy {
  readonly name: string;
  readonly create: () => CompressionStrategy;
}

/** Options of {@link runBench}. */
export interface RunBenchOptions {
  readonly sessions: BenchSessions;
  /** Mechanical strategies and presets, measured. */
  readonly strategies: readonly BenchStrategy[];
  /** Those not measured (they need a model), listed in the report. */
  readonly skipped: readonly BenchSkipped[];
  readonly tokenizer: Tokenizer;
  /** Timed runs of each replay, call and process; medians are reported. */
  readonly runs: number;
  /** Bound on each call figure's untimed warm-up, preparation included (default 3,000 ms; see `medianTime`). */
  readonly warmUpBudgetMilliseconds?: number;
  /** The replays' context window; by default each session's own size in tokens, at most 200,000. */
  readonly window?: number;
  /** The parts of the run to measure (see `benchParts`); every part by default. */
  readonly parts?: readonly BenchPart[];
  /** Called before each step (for a progress bar). */
  readonly onStep?: (label: string) => void;
}

/** What {@link runBench} returns: the report, and the replays that failed (one line each). */
export interface BenchRun {
  readonly report: BenchReport;
  readonly failures: readonly string[];
}

/** A real model's window; the default replay window is the session's own size, but never above it. */
const largestDefaultWindow = 200_000;

const megabytes = (bytes: number) => bytes / (1024 * 1024);

/**
 * How many steps {@link runBench} reports through `onStep`, for a progress bar.
 *
 * @param sessions - Sessions of the run.
 * @param strategies - Strategies and presets measured.
 * @param parts - The parts measured (every part by default).
 */
export function countBenchSteps(sessions: number, strategies: number, parts: readonly BenchPart[] = benchParts): number {
  const counts = (part: BenchPart) => (parts.includes(part) ? 1 : 0);
  return (
    sessions * (counts('replay') * (strategies + 1) + counts('middleware')) +
    strategies * (counts('calls') + counts('turn')) +
    counts('cold')
  );
}

/**
 * Runs every measure of issue 18 side by side: each session replayed `runs` times with each strategy and with nothing
 * compressed (the baseline row, with a window no session reaches: what every replay costs before any strategy works),
 * a tokenization pass of the same session measured before each replay and after the last, so each replay is divided by
 * the mean of the passes on either side of it (both sides of a ratio see the same machine); each row reports its run
 * of median ratio. Each session is also replayed through the AI SDK
 * middleware with nothing compressed (the time inside the middleware per model call). Then the strategies' own calls
 * and one more turn on the largest session, and cold processes. `parts` picks some of these (the report then holds
 * only their figures). Nothing is asserted; figures are compared with their goals.
 */
export async function runBench(options: RunBenchOptions): Promise<BenchRun> {
  const { strategies, tokenizer, runs } = options;
  const parts = options.parts ?? benchParts;
  const measures = (part: BenchPart) => parts.includes(part);
  const warmUp = options.warmUpBudgetMilliseconds === undefined ? {} : { warmUpBudgetMilliseconds: options.warmUpBudgetMilliseconds };
  const sessions = options.sessions.sessions;
  const step = options.onStep ?? (() => undefined);
  const failures: string[] = [];

  // The session replayed through the AI SDK middleware with nothing compressed: what the one-line adoption adds to each
  // model call (prompt compared with the conversation's past, new messages decoded, the history encoded back). A short
  // untimed replay first compiles the code; then `runs` replays, the one of median total reported.
  const measureMiddleware = async (session: BenchSessions['sessions'][number]) => {
    const replay = (maxCalls?: number) =>
      replayThroughMiddleware({ session, createStrategy: createBaselineStrategy, tokenizer, contextWindow: baselineWindow, ...(maxCalls === undefined ? {} : { maxCalls }) });
    await replay(10);
    const measured: { readonly total: number; readonly calls: readonly number[] }[] = [];
    for (let run = 0; run < Math.max(1, runs); run++) {
      collectGarbage();
      const { callOverheadMilliseconds: calls, error } = await replay();
      if (error !== undefined) {
        failures.push(`AI SDK middleware on ${session.label}: ${error}`);
        return { error };
      }
      measured.push({ total: calls.reduce((sum, call) => sum + call, 0), calls });
    }
    const { calls } = [...measured].sort((a, b) => a.total - b.total)[Math.floor((measured.length - 1) / 2)] as (typeof measured)[number];
    return { p50: quantile(calls, 0.5), p99: quantile(calls, 0.99) };
  };

  const summaries: BenchSessionSummary[] = [];
  const replays = new Map<string, PairedReplay[]>();
  /** Per session, the AI SDK middleware's per-call overhead in its run of median total (or why it failed). */
  const middleware: ({ readonly p50: number; readonly p99: number } | { readonly error: string })[] = [];
  for (const [index, session] of sessions.entries()) {
    const first = measureTokenizationPass(session, tokenizer);
    const window = options.window ?? Math.min(largestDefaultWindow, Math.max(1, first.tokens));
    // Tokenization passes are interleaved with the replays (one before each, and one after the last), so each replay
    // is divided by the passes measured on either side of it; a row reports its run of median ratio: one slow pass or
    // replay (other work on the machine) does not decide a figure.
    const passes: number[] = [first.milliseconds];
    const measuredRows: { readonly name: string; readonly runs: (ReplayMeasurement & PassedRun)[] }[] = [];
    const replayRuns = async (name: string, createStrategy: () => CompressionStrategy, contextLimit: number) => {
      const row = { name, runs: [] as (ReplayMeasurement & PassedRun)[] };
      measuredRows.push(row);
      for (let run = 0; run < Math.max(1, runs); run++) {
        collectGarbage();
        passes.push(measureTokenizationPass(session, tokenizer).milliseconds);
        collectGarbage();
        const replay = await replaySession({ session, createStrategy, tokenizer, contextLimit });
        row.runs.push({ ...replay, passBefore: passes.length - 1 });
        if (replay.error !== undefined) break;
      }
    };
    if (measures('replay')) {
      step(`S${index + 1} ${baselineRowName}`);
      // One untimed replay first: the first replay in a process also pays for compiling the code it runs.
      await replaySession({ session, createStrategy: createBaselineStrategy, tokenizer, contextLimit: baselineWindow });
      await replayRuns(baselineRowName, createBaselineStrategy, baselineWindow);
      for (const strategy of strategies) {
        step(`S${index + 1} ${strategy.name}`);
        await replayRuns(strategy.name, strategy.create, window);
      }
    }
    // One more pass after the last replay; without replays, the one pass the session's line reports (the first also
    // compiled the tokenizer's code).
    collectGarbage();
    passes.push(measureTokenizationPass(session, tokenizer).milliseconds);
    for (const row of measuredRows) {
      const paired = pairWithPasses(row.runs, passes);
      if (paired === undefined) continue;
      const { reported, runRatios } = paired;
      if (reported.error !== undefined) failures.push(`${row.name} on ${session.label}: ${reported.error}`);
      const list = replays.get(row.name) ?? [];
      list.push({ ...reported, sessionCharacters: first.characters, runRatios });
      replays.set(row.name, list);
    }
    if (measures('middleware')) {
      step(`S${index + 1} AI SDK middleware`);
      middleware.push(await measureMiddleware(session));
    }
    const timedPasses = passes.slice(1);
    const tokenizationMs = median(timedPasses);
    summaries.push({
      key: `S${index + 1}`,
      label: session.label,
      bytes: session.bytes,
      entries: session.history.length,
      characters: first.characters,
      tokens: first.tokens,
      window,
      tokenizationMs,
      tokenizationRangeMs: { fastest: Math.min(...timedPasses), slowest: Math.max(...timedPasses) },
    });
  }

  const largest = sessions[0];
  const calls = new Map<string, StrategyCallTimes>();
  const turns = new Map<string, Record<(typeof oneMoreTurnSizes)[number], number> | undefined>();
  const turnHistory = largest === undefined || !measures('turn') ? undefined : oneMoreTurnHistory(largest);
  for (const strategy of strategies) {
    if (largest === undefined) break;
    if (measures('calls')) {
      step(`${strategy.name}: optimize and compress`);
      try {
        calls.set(strategy.name, await measureStrategyCalls({ session: largest, createStrategy: strategy.create, tokenizer, runs, warmUp }));
      } catch (error) {
        failures.push(`${strategy.name} optimize/compress on ${largest.label}: ${(error as Error).message.split('\n')[0] ?? ''}`);
      }
    }
    if (turnHistory !== undefined) {
      step(`${strategy.name}: one more turn`);
      try {
        turns.set(strategy.name, await measureOneMoreTurn(turnHistory, strategy.create, runs, warmUp));
      } catch (error) {
        failures.push(`${strategy.name} one more turn: ${(error as Error).message.split('\n')[0] ?? ''}`);
      }
    }
  }

  let cold: ColdCliTimes | undefined;
  let coldNote = coldCliUnavailable();
  if (measures('cold')) step('cold processes');
  if (measures('cold') && coldNote === undefined && largest !== undefined) {
    try {
      cold = measureColdCli(largest.file, runs);
    } catch (error) {
      coldNote = (error as Error).message.split('\n')[0] ?? '';
      failures.push(`cold CLI: ${coldNote}`);
    }
  }

  const columns = summaries.map((summary) => summary.key);
  // The baseline row comes first and has no goal: it is what any strategy's replay costs before its own work.
  const perSession = (
    read: (replay: PairedReplay) => number,
    goal: BenchFigure['goal'],
    spreadOf?: (replay: PairedReplay) => number | undefined,
  ): BenchRow[] =>
    [{ name: baselineRowName, reference: true }, ...strategies.map((strategy) => ({ name: strategy.name, reference: false }))].map(({ name, reference }) => ({
      name,
      ...(reference ? { reference } : {}),
      cells: (replays.get(name) ?? []).map((replay, index) => {
        if (replay.error !== undefined) return benchCell(columns[index] ?? '', null, goal, benchFailure(`failed: ${replay.error.split(':')[0] ?? 'error'}, see stderr`));
        const spread = spreadOf?.(replay);
        return { ...benchCell(columns[index] ?? '', read(replay), reference ? null : goal), ...(spread === undefined ? {} : { spread }) };
      }),
    }));
  // Half the range of the runs' ratios: how far one run of the same cell moved on this machine.
  const ratioSpread = (replay: PairedReplay): number | undefined =>
    replay.runRatios.length < 2 ? undefined : (Math.max(...replay.runRatios) - Math.min(...replay.runRatios)) / 2;
  const noOptimize = 'no optimize()';
  // The strategy threw while its calls were timed (the reason is on stderr).
  const failedMeasure = benchFailure('failed');
  const allFigures: BenchFigure[] = [
    {
      id: 'replay-vs-tokenization',
      part: 'replay',
      title: 'replay ÷ one o200k tokenization pass',
      unit: 'ratio',
      goal: benchGoals.replayVsTokenization,
      columns,
      rows: perSession((replay) => replay.ratio, benchGoals.replayVsTokenization, ratioSpread),
    },
    {
      id: 'turn-p50',
      part: 'replay',
      title: 'per turn, tokenizer included, p50',
      unit: 'ms',
      goal: null,
      columns,
      rows: perSession((replay) => quantile(replay.turnMilliseconds, 0.5), null),
    },
    {
      id: 'turn-p99',
      part: 'replay',
      title: 'per turn, tokenizer included, p99',
      unit: 'ms',
      goal: null,
      columns,
      rows: perSession((replay) => quantile(replay.turnMilliseconds, 0.99), null),
    },
    {
      id: 'turn-overhead-p50',
      part: 'replay',
      title: 'per-turn overhead (tokenizer excluded), p50',
      unit: 'ms',
      goal: benchGoals.turnOverheadP50,
      columns,
      rows: perSession((replay) => quantile(replay.turnOverheadMilliseconds, 0.5), benchGoals.turnOverheadP50),
    },
    {
      id: 'turn-overhead-p99',
      part: 'replay',
      title: 'per-turn overhead (tokenizer excluded), p99',
      unit: 'ms',
      goal: benchGoals.turnOverheadP99,
      columns,
      rows: perSession((replay) => quantile(replay.turnOverheadMilliseconds, 0.99), benchGoals.turnOverheadP99),
    },
    ...(['p50', 'p99'] as const).map(
      (percentile): BenchFigure => ({
        id: `middleware-overhead-${percentile}`,
        part: 'middleware',
        title: `AI SDK middleware per model call (tokenizer excluded), nothing compressed, ${percentile}`,
        unit: 'ms',
        goal: percentile === 'p50' ? benchGoals.turnOverheadP50 : benchGoals.turnOverheadP99,
        columns,
        rows: [
          {
            name: 'createContextMiddleware',
            cells: middleware.map((measured, index) => {
              const goal = percentile === 'p50' ? benchGoals.turnOverheadP50 : benchGoals.turnOverheadP99;
              return 'error' in measured
                ? benchCell(columns[index] ?? '', null, goal, benchFailure(`failed: ${measured.error.split(':')[0] ?? 'error'}, see stderr`))
                : benchCell(columns[index] ?? '', measured[percentile], goal);
            }),
          },
        ],
      }),
    ),
    {
      id: 'characters-tokenized',
      part: 'replay',
      title: 'characters tokenized ÷ characters in the session',
      unit: 'ratio',
      goal: benchGoals.charactersTokenized,
      columns,
      rows: perSession((replay) => replay.charactersTokenized / replay.sessionCharacters, benchGoals.charactersTokenized),
    },
    {
      id: 'optimize',
      part: 'calls',
      title: `optimize() on the largest session (${columns[0] ?? 'none'})`,
      unit: 'ms',
      goal: benchGoals.optimize,
      columns: ['warm', 'fresh'],
      rows: strategies.map((strategy) => {
        const times = calls.get(strategy.name);
        return {
          name: strategy.name,
          cells: [
            benchCell('warm', times?.optimizeWarm, benchGoals.optimize, times === undefined ? failedMeasure : noOptimize),
            benchCell('fresh', times?.optimizeFresh, benchGoals.optimize, times === undefined ? failedMeasure : noOptimize),
          ],
        };
      }),
    },
    {
      id: 'compress',
      part: 'calls',
      title: `compress() on the largest session (${columns[0] ?? 'none'}), window its own size`,
      unit: 'ms',
      goal: benchGoals.compress,
      columns: ['warm', 'fresh', 'fresh: tokenizing what it wrote'],
      referenceColumns: ['fresh: tokenizing what it wrote'],
      rows: strategies.map((strategy) => {
        const times = calls.get(strategy.name);
        return {
          name: strategy.name,
          cells: [
            benchCell('warm', times?.compressWarm, benchGoals.compress, failedMeasure),
            benchCell('fresh', times?.compressFresh, benchGoals.compress, failedMeasure),
            // What counting the text it wrote costs: no goal of its own, the floor under the fresh figure.
            benchCell('fresh: tokenizing what it wrote', times?.compressFreshTokenizing, null, failedMeasure),
          ],
        };
      }),
    },
    {
      id: 'one-more-turn',
      part: 'turn',
      title: `optimize() after one more turn, by history size (${turnHistory?.label ?? 'none'})`,
      unit: 'ms',
      goal: null,
      columns: oneMoreTurnSizes.map(String),
      rows: strategies.map((strategy) => ({
        name: strategy.name,
        cells: oneMoreTurnSizes.map((size) => benchCell(String(size), turns.get(strategy.name)?.[size], null, turns.has(strategy.name) ? noOptimize : failedMeasure)),
      })),
    },
    {
      id: 'one-more-turn-growth',
      part: 'turn',
      title: 'optimize() after one more turn, 600 ÷ 150 entries',
      unit: 'ratio',
      goal: benchGoals.oneMoreTurnGrowth,
      columns: ['600 ÷ 150'],
      rows: strategies.map((strategy) => {
        const times = turns.get(strategy.name);
        const ratio = times === undefined ? undefined : times[600] / times[150];
        return { name: strategy.name, cells: [benchCell('600 ÷ 150', ratio, benchGoals.oneMoreTurnGrowth, turns.has(strategy.name) ? noOptimize : failedMeasure)] };
      }),
    },
    {
      id: 'cold-cli',
      part: 'cold',
      title: `cold \`ctx compress <${columns[0] ?? 'none'}> --strategy truncation\` ÷ read + parse + tokenize once`,
      unit: 'ratio',
      goal: benchGoals.coldCli,
      columns: ['ratio'],
      rows: [{ name: 'ctx compress', cells: [benchCell('ratio', cold === undefined ? undefined : cold.compress / cold.lowerBound, benchGoals.coldCli, coldNote)] }],
    },
    {
      id: 'cold-processes',
      part: 'cold',
      title: 'cold processes (node started by node, no npx)',
      unit: 'ms',
      goal: null,
      columns: ['ms'],
      rows: (
        [
          ['ctx compress', cold?.compress],
          ['read + parse + tokenize once', cold?.lowerBound],
          ['ctx --help', cold?.help],
          ['node -e 0', cold?.node],
        ] as const
      ).map(([name, value]) => ({ name, cells: [benchCell('ms', value, null, coldNote)] })),
    },
    {
      id: 'peak-memory',
      part: 'replay',
      title: 'peak V8 heap in use during the replay',
      unit: 'MB',
      goal: null,
      columns,
      rows: perSession((replay) => megabytes(replay.peakHeapBytes), null),
    },
  ];

  const figures = allFigures.filter((figure) => measures(figure.part));
  const missed = figures.reduce((total, figure) => total + figure.rows.reduce((sum, row) => sum + row.cells.filter((cell) => cell.met === false).length, 0), 0);
  return {
    report: {
      tokenizer: tokenizer.name,
      source: options.sessions.source,
      sessions: summaries,
      measured: strategies.map((strategy) => strategy.name),
      skipped: options.skipped,
      parts: benchParts.filter(measures),
      figures,
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      missed,
    },
    failures,
  };
}
