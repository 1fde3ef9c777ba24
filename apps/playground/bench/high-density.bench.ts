// High-density (spec 000) on the largest corpus sessions. Targets: optimize ≤ 1 ms and compress ≤ 3 ms warm (the
// history parsed, its entries counted); optimize after one appended turn at 600 entries ≤ 1.5× its cost at 150.
// - "optimize(), warm": the same strategy optimizing a history it has seen (the agent loop's steady state: the
//   memo covers every closed turn, only the trailing one is processed again).
// - "optimize(), fresh strategy": a new strategy on an already-seen history (per-block classification cached in
//   WeakMaps keyed by the frozen blocks; the three phases run over every entry).
// - "compress(), warm": every input entry counted with gpt-tokenizer, the summarized entries cached.
// - "after one appended turn": a synthetic history of N entries, optimized and the result applied; a strategy that
//   optimized it, then the same history plus one Edit + Read turn (what the orchestrator passes after the tool
//   results arrive).
// Prints only; skipped when ../shared/corpus is absent (the appended-turn benches always run).
import {
  applyDensityResultToHistory,
  createTokenCounter,
  densityDefaults,
  parseHistory,
  type DensityConfig,
  type HistoryEntry,
} from '@ctx/core';
import { createHighDensityStrategy } from '@ctx/strategy-high-density';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { bench, describe } from 'vitest';
import { createSessionSizedContext, findBenchCorpus, largestCorpusSessions, measuredRun, optimizerOf, readCorpusHistories, syntheticHistory } from './bench-support.js';

const corpus = findBenchCorpus('high-density corpus benchmarks');
const measured = measuredRun({ warmupTime: 300 });
// What the orchestrator passes by default: spec 000's toggles, and '/' as the root (the session's own root is used).
const defaults: DensityConfig = { ...densityDefaults, workspaceRoot: '/' };
const withRecencyPruning: DensityConfig = { ...defaults, recencyPruning: true };

/** One assistant turn (an Edit and a Read) with its results, as new frozen entries. */
function appendedTurn(): readonly HistoryEntry[] {
  return parseHistory([
    {
      speaker: 'ai',
      blocks: [
        { type: 'text', text: 'Next.' },
        { type: 'tool_call', id: 'appended_1', name: 'Edit', parameters: { file_path: '/repo/src/parser.ts', old_string: 'compute(1)', new_string: 'compute(3)' } },
        { type: 'tool_call', id: 'appended_2', name: 'Read', parameters: { file_path: '/repo/src/cache.ts' } },
      ],
    },
    {
      speaker: 'tool',
      blocks: [
        { type: 'tool_response', callId: 'appended_1', toolName: 'Edit', result: 'The file /repo/src/parser.ts has been updated.' },
        { type: 'tool_response', callId: 'appended_2', toolName: 'Read', result: 'const a = 1;\n'.repeat(50) },
      ],
    },
  ]);
}

describe('high-density: optimize after one appended turn', () => {
  for (const size of [150, 600]) {
    for (const [toggle, config] of [['off', defaults], ['on', withRecencyPruning]] as const) {
      // The loop's steady state: the previous result applied, then one more turn appended.
      const raw = syntheticHistory(size);
      const result = optimizerOf(createHighDensityStrategy())(raw, config);
      if (result === undefined) throw new Error('high-density must optimize');
      const base = applyDensityResultToHistory(raw, result);
      const grown = [...base, ...appendedTurn()];
      const optimize = optimizerOf(createHighDensityStrategy());
      optimize(base, config);
      bench(`${size} entries + 1 turn, recencyPruning ${toggle}`, () => {
        optimize(grown, config);
      }, measured);
    }
  }
});

if (corpus !== undefined) {
  const gptTokenizer = await createGptTokenizer();
  const sessions = await readCorpusHistories(corpus, largestCorpusSessions);

  for (const [label, history] of Object.entries(sessions)) {
    describe(`high-density: ${label} (${history.length} entries)`, () => {
      const context = createSessionSizedContext(history, createTokenCounter(gptTokenizer));
      const strategy = createHighDensityStrategy();
      const optimize = optimizerOf(strategy);
      optimize(history, defaults);
      const withRecency = optimizerOf(createHighDensityStrategy());
      withRecency(history, withRecencyPruning);

      bench('optimize(), warm', () => {
        optimize(history, defaults);
      }, measured);
      bench('optimize(), warm, recencyPruning on', () => {
        withRecency(history, withRecencyPruning);
      }, measured);
      bench('optimize(), fresh strategy (per-block caches warm)', () => {
        optimizerOf(createHighDensityStrategy())(history, defaults);
      }, measured);
      bench('compress(), warm (gpt-tokenizer counts cached)', async () => {
        await strategy.compress(context);
      }, measured);
    });
  }
}
