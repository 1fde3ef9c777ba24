// Truncation on the largest corpus sessions (spec 004 NFR-P-001: < 100 ms; aim ≤ 5 ms). Four measures:
// - "compress(), gpt-tokenizer, first compression": the strategy alone, with every input entry already counted (as in
//   an agent loop, where the history service has them cached) and the counter's content cache off, so each
//   iteration tokenizes the texts of the entries it shortens, as the first compression of a session does.
// - "compress(), gpt-tokenizer, again": the same with the content cache on (the default): texts counted before, in
//   whatever entry object, are not tokenized again, as when the agent compresses the same old results again.
// - "compress(), chars/4": the same with a trivial tokenizer, i.e. the strategy's own work.
// - "whole pass": what `ctx compare` times — a history service on the session, an orchestrator, the threshold check,
//   compress(), the orchestrator's validation of the result and the history's recount.
// Prints only; skipped when ../shared/corpus is absent.
import {
  HistoryService,
  createCompressionOrchestrator,
  createTokenCounter,
  type HistoryEntry,
  type TokenCounter,
  type Tokenizer,
} from '@ctx/core';
import { createTruncationStrategy } from '@ctx/strategy-truncation';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { bench, describe } from 'vitest';
import { createSessionSizedContext, findBenchCorpus, measuredRun, readCorpusHistories } from './bench-support.js';

const corpus = findBenchCorpus('truncation benchmarks');
const measured = measuredRun({ time: 2000 });

const characterTokenizer: Tokenizer = {
  specificationVersion: 'v1',
  name: 'characters/4',
  countTokens: (text) => Math.ceil(text.length / 4),
};

/** One orchestrator pass on a fresh history service, as `ctx compare` runs it (the counter's cache is shared). */
async function wholePass(history: readonly HistoryEntry[], tokenCounter: TokenCounter): Promise<void> {
  const service = new HistoryService({ tokenCounter, history });
  await service.waitForTokenUpdates();
  const orchestrator = createCompressionOrchestrator({
    history: service,
    strategies: [createTruncationStrategy()],
    contextLimit: service.getTotalTokens(),
  });
  await orchestrator.ensureCompressionBeforeSend();
  orchestrator.dispose();
}

if (corpus !== undefined) {
  const gptTokenizer = await createGptTokenizer();
  const sessions = await readCorpusHistories(corpus, {
    'Claude Code 3.1 MB (293 entries)': 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
    'Claude Code 2.7 MB (466 entries)': 'claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
    'mini-swe-agent 2.1 MB (143 entries)': 'openai-chat/mini-swe-agent/psf__requests-1142.traj.json',
    'Gemini CLI 1.0 MB (449 entries, the slowest)': 'gemini-cli/session-2026-01-11T00-25-17b4d5e9.json',
  });
  const defaults = createTruncationStrategy();

  for (const [label, history] of Object.entries(sessions)) {
    describe(`truncation: ${label}`, () => {
      const first = createSessionSizedContext(history, createTokenCounter(gptTokenizer, { contentCacheCharacters: 0 }));
      const exact = createSessionSizedContext(history, createTokenCounter(gptTokenizer));
      const cheap = createSessionSizedContext(history, createTokenCounter(characterTokenizer));
      const passCounter = createTokenCounter(gptTokenizer);
      passCounter.countEntries(history);
      bench('compress(), gpt-tokenizer, first compression (no content cache)', async () => {
        await defaults.compress(first);
      }, measured);
      bench('compress(), gpt-tokenizer, again (content cache)', async () => {
        await defaults.compress(exact);
      }, measured);
      bench('compress(), strategy work (chars/4 counts)', async () => {
        await defaults.compress(cheap);
      }, measured);
      bench('whole pass (history service + orchestrator), gpt-tokenizer', async () => {
        await wholePass(history, passCounter);
      }, measured);
    });
  }
}
