// Lossless (spec 004 FR-LC) turn by turn, issue 18's figures: a session replayed entry by entry the way the agent
// loop runs it — one entry appended, `optimize()` on the whole history, its result applied (HistoryService's
// `applyDensityResultToHistory`) — timing each `optimize()` call (the tokenizer is not involved).
// Goals: per-turn p50 ≤ 1 ms, p99 ≤ 10 ms; one more turn at 600 entries ≤ 1.5× its cost at 150 (flat); optimize
// ≤ 1 ms warm and compress ≤ 3 ms warm on the largest session (the `bench()` rows).
// - "replay": printed per session — p50 / p99 of the per-turn calls, and the mean call when the history holds
//   150 ± 5 and 600 ± 5 entries (three replays, each with a new strategy).
// - "optimize(), warm": the strategy that just optimized this history, asked again (the orchestrator does so when
//   nothing was appended).
// - "optimize(), fresh strategy": a new strategy on the whole session. The history is frozen (as HistoryService holds
//   it), so the new strategy reuses the plans strategies with the same settings made; `ctx bench` measures the
//   first plan of a never-seen history as "fresh".
// - "compress(), warm": every entry counted with gpt-tokenizer (cached), as in an agent loop.
// Prints only; skipped when ../shared/corpus is absent (the synthetic replay always runs).
import {
  applyDensityResultToHistory,
  createTokenCounter,
  densityDefaults,
  type DensityConfig,
  type HistoryEntry,
} from '@ctx/core';
import { createLosslessStrategy } from '@ctx/strategy-lossless';
import { inferWorkspaceRoot } from '@ctx/strategy-utils';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { bench, describe } from 'vitest';
import { createSessionSizedContext, findBenchCorpus, measuredRun, optimizerOf, readCorpusHistories, syntheticHistory } from './bench-support.js';

const corpus = findBenchCorpus('lossless incremental corpus benchmarks');
const measured = measuredRun({ warmupTime: 300 });
const replays = 3;

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

function meanAround(durations: readonly number[], size: number): number {
  const window = durations.slice(Math.max(0, size - 6), size + 5);
  return window.reduce((sum, value) => sum + value, 0) / window.length;
}

/** Milliseconds of each `optimize()` call, index = entries in the history minus one. */
function replay(history: readonly HistoryEntry[], config: DensityConfig): number[] {
  const optimize = optimizerOf(createLosslessStrategy());
  const durations: number[] = [];
  let running: HistoryEntry[] = [];
  for (const entry of history) {
    running = [...running, entry];
    const started = performance.now();
    const result = optimize(running, config);
    durations.push(performance.now() - started);
    if (result.replacements.size > 0) running = applyDensityResultToHistory(running, result, 'lossless');
  }
  return durations;
}

function reportReplay(label: string, history: readonly HistoryEntry[], config: DensityConfig): void {
  const runs = Array.from({ length: replays }, () => replay(history, config));
  const durations = history.map((_, index) => Math.min(...runs.map((run) => run[index] as number)));
  const sorted = [...durations].sort((first, second) => first - second);
  const total = durations.reduce((sum, value) => sum + value, 0);
  const format = (value: number) => `${value.toFixed(3)} ms`;
  const lines = [
    `lossless replay, ${label} (${history.length} entries; best of ${replays} replays per call)`,
    `  per turn: p50 ${format(percentile(sorted, 0.5))} (goal ≤ 1 ms), p99 ${format(percentile(sorted, 0.99))} (goal ≤ 10 ms), total ${format(total)}`,
  ];
  if (history.length >= 605) {
    const at150 = meanAround(durations, 150);
    const at600 = meanAround(durations, 600);
    lines.push(
      `  one more turn: ${format(at150)} at 150 entries, ${format(at600)} at 600, ratio ${(at600 / at150).toFixed(2)}× (goal ≤ 1.5×)`,
    );
  }
  console.log(lines.join('\n'));
}

describe('lossless: replay of a synthetic history', () => {
  const history = syntheticHistory(620);
  const config: DensityConfig = { ...densityDefaults, workspaceRoot: inferWorkspaceRoot(history) };
  reportReplay('synthetic', history, config);
  const optimize = optimizerOf(createLosslessStrategy());
  bench('replay, optimize() after each appended entry', () => {
    let running: HistoryEntry[] = [];
    for (const entry of history) {
      running = [...running, entry];
      const result = optimize(running, config);
      if (result.replacements.size > 0) running = applyDensityResultToHistory(running, result, 'lossless');
    }
  }, measuredRun({ time: 3000, warmupTime: 0 }));
});

if (corpus !== undefined) {
  const gptTokenizer = await createGptTokenizer();
  const sessions = await readCorpusHistories(corpus, {
    'Claude Code 3.2 MB (the largest)': 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
    'mini-swe-agent 2.1 MB': 'openai-chat/mini-swe-agent/psf__requests-1142.traj.json',
  });

  for (const [label, history] of Object.entries(sessions)) {
    describe(`lossless incremental: ${label} (${history.length} entries)`, () => {
      const config: DensityConfig = { ...densityDefaults, workspaceRoot: inferWorkspaceRoot(history) };
      reportReplay(label, history, config);
      const context = createSessionSizedContext(history, createTokenCounter(gptTokenizer));
      const strategy = createLosslessStrategy();
      const optimize = optimizerOf(strategy);
      optimize(history, config);

      bench('optimize(), warm', () => {
        optimize(history, config);
      }, measured);
      bench('optimize(), fresh strategy', () => {
        optimizerOf(createLosslessStrategy())(history, config);
      }, measured);
      bench('compress(), warm (gpt-tokenizer counts cached)', async () => {
        await strategy.compress(context);
      }, measured);
    });
  }
}
