// Watermark strategy passes (@ctx/strategy-watermark), warm token cache, as in an agent loop where one pass runs
// before every send. Linear: one scan for the checkpoint call, one over the entries before it.
// - optimize() of the stateless strategy on the largest corpus Claude Code sessions, with TodoWrite as the
//   checkpoint tool (vsla: 25 TodoWrite calls) and with every tool a checkpoint (spotter: the newest call wins);
// - compress() at 150 / 300 / 600 synthetic entries (expect the time to roughly double per step);
// - a whole session replayed turn by turn with the stateful strategy (one pass per assistant entry), printed.
// Skipped (the corpus part) when ../shared/corpus is absent.
import { applyDensityResultToHistory, createTokenCounter, densityDefaults, type DensityConfig, type HistoryEntry } from '@ctx/core';
import { createStatefulWatermarkStrategy, createWatermarkStrategy } from '@ctx/strategy-watermark';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { bench, describe } from 'vitest';
import { createSessionSizedContext, findBenchCorpus, measuredRun, readCorpusHistories, syntheticHistory } from './bench-support.js';

const measured = measuredRun();
const density: DensityConfig = { ...densityDefaults, workspaceRoot: '/' };
const tokenCounter = createTokenCounter(await createGptTokenizer());

describe('watermark compress() (150 / 300 / 600 synthetic entries, every Bash call a checkpoint)', () => {
  const strategy = createWatermarkStrategy({ checkpointToolNames: ['Bash'] });
  for (const size of [150, 300, 600]) {
    const context = createSessionSizedContext(syntheticHistory(size), tokenCounter);
    bench(`${size} entries`, async () => {
      await strategy.compress(context);
    }, measured);
  }
});

const corpus = findBenchCorpus('the watermark corpus benchmarks');
if (corpus !== undefined) {
  const { vsla, spotter } = await readCorpusHistories(corpus, {
    vsla: 'claude-code/vsla/0a725fb5-6378-432a-9e84-9f3f49d4043d.jsonl',
    spotter: 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl',
  });
  const spotterTools = [
    ...new Set(spotter.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.name] : [])))),
  ];
  tokenCounter.countEntries(vsla);
  tokenCounter.countEntries(spotter);

  const todoStrategy = createWatermarkStrategy({ checkpointToolNames: ['TodoWrite'] });
  const everyToolStrategy = createWatermarkStrategy({ checkpointToolNames: spotterTools });

  describe('watermark optimize() on corpus sessions', () => {
    bench(`vsla 1.6 MB (${vsla.length} entries), TodoWrite checkpoints`, () => {
      todoStrategy.optimize?.(vsla, density);
    }, measured);
    bench(`spotter 2.8 MB (${spotter.length} entries), every tool a checkpoint`, () => {
      everyToolStrategy.optimize?.(spotter, density);
    }, measured);
  });

  // One replay, timed once and printed: the cost an agent pays over a whole session.
  const replay = (history: readonly HistoryEntry[]) => {
    const stateful = createStatefulWatermarkStrategy({ checkpointToolNames: ['TodoWrite'] });
    let current: HistoryEntry[] = [];
    let passes = 0;
    const started = performance.now();
    const pass = () => {
      passes++;
      const result = stateful.optimize?.(current, density);
      if (result !== undefined && (result.removals.length > 0 || result.replacements.size > 0)) {
        current = applyDensityResultToHistory(current, result);
      }
    };
    for (const entry of history) {
      if (entry.speaker === 'ai') pass();
      current.push(entry);
    }
    pass();
    const milliseconds = performance.now() - started;
    const tokensBefore = tokenCounter.countEntries(history);
    const tokensAfter = tokenCounter.countEntries(current);
    console.log(
      `stateful watermark replay of vsla 1.6 MB: ${passes} passes (optimize + apply) in ${milliseconds.toFixed(1)} ms ` +
        `(${((milliseconds * 1000) / passes).toFixed(0)} µs per pass); ${tokensBefore} → ${tokensAfter} tokens at the end`,
    );
  };
  replay(vsla);
}
