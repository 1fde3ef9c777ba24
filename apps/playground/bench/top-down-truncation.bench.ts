// Top-down truncation compress() at 150 / 300 / 600 entries with a warm token cache (history already parsed and
// counted, as in an agent loop). Linear: expect the mean time to roughly double with each size step; the known
// implementation re-estimates every remaining prefix and grows quadratically.
import { createTokenCounter } from '@ctx/core';
import { createTopDownTruncationStrategy } from '@ctx/strategy-top-down-truncation';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { bench, describe } from 'vitest';
import { createSessionSizedContext, measuredRun, syntheticHistory } from './bench-support.js';

const measured = measuredRun();

const tokenCounter = createTokenCounter(await createGptTokenizer());
const strategy = createTopDownTruncationStrategy();

describe('top-down truncation compress() (150 / 300 / 600 entries)', () => {
  for (const size of [150, 300, 600]) {
    const context = createSessionSizedContext(syntheticHistory(size), tokenCounter);
    bench(`${size} entries`, async () => {
      await strategy.compress(context);
    }, measured);
  }
});
