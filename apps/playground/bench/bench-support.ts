// What the benchmarks need to load sessions (recorded or synthetic) and build the contexts strategies run in. The
// corpus is found and read with the playground's own code (`findCorpusDirectory`, `readTranscriptFile`), so a bench
// reads a transcript exactly as `ctx compare` does.
import { join } from 'node:path';
import { createSyntheticHistory } from '@ctx/conformance';
import {
  createCompressionBudget,
  parseHistory,
  type CompressionContext,
  type CompressionStrategy,
  type DensityConfig,
  type DensityResult,
  type HistoryEntry,
  type TokenCounter,
} from '@ctx/core';
import type { BenchOptions } from 'vitest';
import { findCorpusDirectory } from '../src/corpus.js';
import { readTranscriptFile } from '../src/read-transcripts.js';

/** How long `bench()` measures, in milliseconds. */
export interface MeasuredRunOptions {
  /**
   * How long each bench is measured.
   *
   * @default 1500
   */
  readonly time?: number;
  /**
   * How long each bench runs before it is measured.
   *
   * @default 500
   */
  readonly warmupTime?: number;
}

/**
 * Options for `bench()`: runs long enough, after a warm-up, that JIT and GC noise do not hide the growth rate.
 *
 * @param options - Overrides of the defaults.
 * @returns The options to pass as `bench()`'s third argument.
 * @example
 * const measured = measuredRun({ warmupTime: 300 });
 * bench('optimize()', () => strategy.optimize?.(history, config), measured);
 */
export function measuredRun(options: MeasuredRunOptions = {}): BenchOptions {
  return { time: options.time ?? 1500, warmupTime: options.warmupTime ?? 500 };
}

/**
 * The recorded corpus (`../shared/corpus`, or `CTX_CORPUS`) for benches that need it. When this checkout has none,
 * prints that `skipped` is skipped, so a bench run says why it measured less.
 *
 * @param skipped - What is skipped without the corpus, e.g. `'truncation benchmarks'`.
 * @returns The corpus directory, or undefined when there is none.
 * @example
 * const corpus = findBenchCorpus('truncation benchmarks');
 * if (corpus !== undefined) { ... }
 */
export function findBenchCorpus(skipped: string): string | undefined {
  const corpus = findCorpusDirectory();
  if (corpus === undefined) console.warn(`Skipping ${skipped}: ../shared/corpus not found (set CTX_CORPUS).`);
  return corpus;
}

/**
 * The history of one corpus transcript, in whatever format it is (Claude Code sessions whole, trajectories, …),
 * validated and frozen as the history service holds it.
 *
 * @param corpus - The corpus directory, from {@link findBenchCorpus}.
 * @param file - The transcript's path inside the corpus, e.g. `'claude-code/spotter/<session>.jsonl'`.
 * @returns The parsed history of the file's first conversation.
 * @throws When the file cannot be read or holds no conversation.
 */
export async function readCorpusHistory(corpus: string, file: string): Promise<readonly HistoryEntry[]> {
  const [transcript] = await readTranscriptFile(join(corpus, file));
  if (transcript === undefined) throw new Error(`Expected a conversation in the corpus file ${file}, found none`);
  return parseHistory(transcript.conversation.history);
}

/**
 * The histories of several corpus transcripts, each read as {@link readCorpusHistory} reads one.
 *
 * @param corpus - The corpus directory, from {@link findBenchCorpus}.
 * @param files - By label (what the bench prints), the transcript's path inside the corpus.
 * @returns The histories by the same labels, in the same order.
 * @example
 * const sessions = await readCorpusHistories(corpus, { 'mini-swe-agent 2.1 MB': 'openai-chat/mini-swe-agent/<run>.traj.json' });
 * for (const [label, history] of Object.entries(sessions)) describe(label, () => { ... });
 */
export async function readCorpusHistories<Label extends string>(
  corpus: string,
  files: Readonly<Record<Label, string>>,
): Promise<Record<Label, readonly HistoryEntry[]>> {
  const histories = {} as Record<Label, readonly HistoryEntry[]>;
  for (const [label, file] of Object.entries(files) as [Label, string][]) histories[label] = await readCorpusHistory(corpus, file);
  return histories;
}

/**
 * The conformance kit's synthetic history of the given size (seed 11, the same history in every bench), parsed.
 *
 * @param entries - How many entries.
 * @returns The validated, frozen history.
 */
export function syntheticHistory(entries: number): readonly HistoryEntry[] {
  return parseHistory(createSyntheticHistory({ entries, seed: 11 }));
}

/**
 * A compression context whose window is the history's own size at the default threshold (0.85), as `ctx compare`
 * uses by default. Counting the history here warms `tokenCounter`'s cache, as in an agent loop.
 *
 * @param history - The history to compress.
 * @param tokenCounter - The counter the strategy will use; every entry of `history` is counted with it.
 * @returns The context to pass to `compress()`.
 */
export function createSessionSizedContext(history: readonly HistoryEntry[], tokenCounter: TokenCounter): CompressionContext {
  return {
    history,
    system: [],
    tools: [],
    tokenCounter,
    budget: createCompressionBudget({ contextLimit: tokenCounter.countEntries(history), threshold: 0.85 }),
  };
}

/** The largest recorded sessions of two agents, by label: what the core and strategy benchmarks replay. */
export const largestCorpusSessions = {
  'Claude Code 3.2 MB (the largest)': 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
  'Claude Code 2.7 MB': 'claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
  'mini-swe-agent 2.1 MB': 'openai-chat/mini-swe-agent/psf__requests-1142.traj.json',
} as const;

/**
 * A strategy's `optimize()` as a plain function, for benchmarks of strategies that must have one.
 *
 * @throws Error when the strategy has no `optimize()`.
 */
export function optimizerOf(strategy: CompressionStrategy): (history: readonly HistoryEntry[], config: DensityConfig) => DensityResult {
  const optimize = strategy.optimize?.bind(strategy);
  if (optimize === undefined) throw new Error(`${strategy.name} must optimize`);
  return optimize;
}
