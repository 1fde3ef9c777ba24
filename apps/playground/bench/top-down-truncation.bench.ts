// Top-down truncation compress() at 150 / 300 / 600 entries with a warm token cache (history already parsed and
// counted, as in an agent loop). Linear: expect the mean time to roughly double with each size step; the known
// implementation re-estimates every remaining prefix and grows quadratically.
import { createSyntheticHistory } from '@ctx/conformance';
import { createCompressionBudget, createTokenCounter, parseHistory, type CompressionContext } from '@ctx/core';
import { createTopDownTruncationStrategy } from '@ctx/strategy-top-down-truncation';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { bench, describe } from 'vitest';

// Long enough runs, after a warm-up, that JIT and GC noise do not hide the growth rate.
const measured = { time: 1500, warmupTime: 500 };

const tokenCounter = createTokenCounter(await createGptTokenizer());
const strategy = createTopDownTruncationStrategy();

describe('top-down truncation compress() (150 / 300 / 600 entries)', () => {
  for (const size of [150, 300, 600]) {
    const history = parseHistory(createSyntheticHistory({ entries: size, seed: 11 }));
    const tokens = tokenCounter.countEntries(history);
    const context: CompressionContext = {
      history,
      system: [],
      tools: [],
      tokenCounter,
      budget: createCompressionBudget({ contextLimit: tokens, threshold: 0.85 }),
    };
    bench(`${size} entries`, async () => {
      await strategy.compress(context);
    }, measured);
  }
});
