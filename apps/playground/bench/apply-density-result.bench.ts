// applyDensityResult + token recount at 150 / 300 / 600 entries. Each iteration builds a HistoryService from already
// validated entries with a warm token cache (both linear), removes every 10th call/response pair and replaces every
// 20th human entry, then recounts. Expect the mean time to roughly double with each size step.
import { HistoryService, createTokenCounter, type DensityResult, type HistoryEntry } from '@ctx/core';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { bench, describe } from 'vitest';
import { measuredRun, syntheticHistory } from './bench-support.js';

const measured = measuredRun();

const tokenCounter = createTokenCounter(await createGptTokenizer());

function densityResultFor(history: readonly HistoryEntry[]): DensityResult {
  const removals: number[] = [];
  const replacements = new Map<number, HistoryEntry>();
  history.forEach((entry, index) => {
    const next = history[index + 1];
    if (entry.speaker === 'ai' && next?.speaker === 'tool' && index % 10 === 1 && history[index - 1]?.speaker === 'human') {
      removals.push(index, index + 1);
    } else if (entry.speaker === 'human' && index % 20 === 0) {
      replacements.set(index, { speaker: 'human', blocks: [{ type: 'text', text: `edited request ${index}` }] });
    }
  });
  return { removals, replacements, metadata: { benchmarkEdits: removals.length + replacements.size } };
}

describe('applyDensityResult + recount (150 / 300 / 600 entries)', () => {
  for (const size of [150, 300, 600]) {
    const history = syntheticHistory(size);
    const result = densityResultFor(history);
    tokenCounter.countEntries(history);
    bench(`${size} entries`, async () => {
      const service = new HistoryService({ tokenCounter, history });
      await service.applyDensityResult(result);
    }, measured);
  }
});
