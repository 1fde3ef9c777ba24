// Lossless (spec 004 FR-LC) on the largest corpus sessions. Spec 004 NFR-P-001: under 1 s on the largest session;
// aim ≤ 20 ms.
// - "optimize()": plans the whole history (line index, runs, markers); the agent loop calls it before every send.
// - "optimize() after its own result": the steady state — every earlier result already rewritten, nothing new.
// - "compress(), warm": optimize's work plus superseded todo lists, every entry counted with gpt-tokenizer (cached).
// - "expandHistory()": restoring the original from the compressed history.
// Prints only; skipped when ../shared/corpus is absent.
import {
  applyDensityResultToHistory,
  createTokenCounter,
  densityDefaults,
  type DensityConfig,
} from '@ctx/core';
import { createLosslessStrategy, expandHistory } from '@ctx/strategy-lossless';
import { inferWorkspaceRoot } from '@ctx/strategy-utils';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { bench, describe } from 'vitest';
import { createSessionSizedContext, findBenchCorpus, measuredRun, optimizerOf, readCorpusHistories } from './bench-support.js';

const corpus = findBenchCorpus('lossless benchmarks');
const measured = measuredRun({ warmupTime: 300 });

if (corpus !== undefined) {
  const gptTokenizer = await createGptTokenizer();
  const sessions = await readCorpusHistories(corpus, {
    'Claude Code 3.2 MB (the largest)': 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
    'mini-swe-agent 2.1 MB': 'openai-chat/mini-swe-agent/psf__requests-1142.traj.json',
  });

  for (const [label, history] of Object.entries(sessions)) {
    describe(`lossless: ${label} (${history.length} entries)`, () => {
      const config: DensityConfig = { ...densityDefaults, workspaceRoot: inferWorkspaceRoot(history) };
      const context = createSessionSizedContext(history, createTokenCounter(gptTokenizer));
      const strategy = createLosslessStrategy();
      const optimize = optimizerOf(strategy);
      const optimized = applyDensityResultToHistory(history, optimize(history, config));

      bench('optimize()', () => {
        optimize(history, config);
      }, measured);
      bench('optimize() after its own result (nothing new)', () => {
        optimize(optimized, config);
      }, measured);
      bench('compress(), warm (gpt-tokenizer counts cached)', async () => {
        await strategy.compress(context);
      }, measured);
      bench('expandHistory()', () => {
        expandHistory(optimized);
      }, measured);
    });
  }
}
