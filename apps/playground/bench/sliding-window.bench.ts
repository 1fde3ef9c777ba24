// Sliding-window compress() with a warm token cache (history already parsed and counted, as in an agent loop):
// synthetic sessions of 150 / 300 / 600 entries (linear: expect the mean time to roughly double with each step), and
// the largest Claude Code sessions of the corpus (skipped when ../shared/corpus is absent). Each pass builds and
// counts an excerpt summary of the dropped part, so it costs more than top-down truncation's suffix sums.
import { createTokenCounter } from '@ctx/core';
import { createSlidingWindowStrategy } from '@ctx/strategy-sliding-window';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { bench, describe } from 'vitest';
import { createSessionSizedContext, findBenchCorpus, measuredRun, readCorpusHistory, syntheticHistory } from './bench-support.js';

const measured = measuredRun();

const tokenCounter = createTokenCounter(await createGptTokenizer());
const strategy = createSlidingWindowStrategy();

describe('sliding-window compress() (150 / 300 / 600 entries)', () => {
  for (const size of [150, 300, 600]) {
    const context = createSessionSizedContext(syntheticHistory(size), tokenCounter);
    bench(`${size} entries`, async () => {
      await strategy.compress(context);
    }, measured);
  }
});

const corpus = findBenchCorpus('the sliding-window corpus benchmarks');
if (corpus !== undefined) {
  const files = [
    'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
    'claude-code/vsla/5f8cbb78-38d3-47e9-9504-baa93bb166c9.jsonl',
  ];
  const sessions = await Promise.all(files.map(async (file) => ({ file, history: await readCorpusHistory(corpus, file) })));
  describe('sliding-window compress() on the largest corpus Claude Code sessions', () => {
    for (const { file, history } of sessions) {
      const context = createSessionSizedContext(history, tokenCounter);
      bench(`${file} (${history.length} entries)`, async () => {
        await strategy.compress(context);
      }, measured);
    }
  });
}
