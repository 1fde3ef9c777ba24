// applyDensityResult + token recount at 150 / 300 / 600 entries. Each iteration builds a HistoryService from already
// validated entries with a warm token cache (both linear), removes every 10th call/response pair and replaces every
// 20th human entry, then recounts. Expect the mean time to roughly double with each size step.
import { createSyntheticHistory } from '@ctx/conformance';
import { HistoryService, createTokenCounter, parseHistory, type DensityResult, type HistoryEntry } from '@ctx/core';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { bench, describe } from 'vitest';

// Long enough runs, after a warm-up, that JIT and GC noise do not hide the growth rate.
const measured = { time: 1500, warmupTime: 500 };

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
    const history = parseHistory(createSyntheticHistory({ entries: size, seed: 11 }));
    const result = densityResultFor(history);
    tokenCounter.countEntries(history);
    bench(`${size} entries`, async () => {
      const service = new HistoryService({ tokenCounter, history });
      await service.applyDensityResult(result);
    }, measured);
  }
});
