// A whole session replayed through @ctx/core as an agent loop drives it (issue 18): every entry added to a
// HistoryService as a fresh object (what an agent hands over, so it crosses the trust boundary: validated, copied,
// frozen), and before every assistant entry the orchestrator's ensureCompressionBeforeSend() (density optimization,
// the threshold check, compression when due), on a 128k window with calibration off, so that compression runs.
// Compared with one tokenization pass over the session's texts: the goal is replay ≤ 1.2× that pass.
// - "one tokenization pass": every text the token counter would tokenize, tokenized once (gpt-tokenizer o200k).
// - "trust boundary": parseHistory over the session's entries (validation, private copy, freezing), once each.
// - "replay, <strategy>": the whole replay, tokenizing included.
// Before the benches, each session prints, per strategy, "replay ÷ one tokenization pass" in CPU time (the best of
// three runs each, which a busy machine disturbs less than wall-clock time; goal ≤ 1.2) and "characters tokenized ÷
// characters in the session" (createCountingTokenizer ÷ measureTokenizedCharacters; goal 1.0, below 1 when the
// session repeats texts, above when a strategy writes new text that must be counted).
// Prints only; skipped when ../shared/corpus is absent.
import {
  HistoryService,
  createCompressionOrchestrator,
  createCountingTokenizer,
  measureTokenizedCharacters,
  parseHistory,
  type CompressionStrategy,
  type HistoryEntry,
  type Tokenizer,
} from '@ctx/core';
import { createHighDensityStrategy } from '@ctx/strategy-high-density';
import { createTruncationStrategy } from '@ctx/strategy-truncation';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { bench, describe } from 'vitest';
import { findBenchCorpus, largestCorpusSessions, readCorpusHistories } from './bench-support.js';

const corpus = findBenchCorpus('core replay benchmarks');
// A replay takes a few hundred milliseconds: a fixed number of runs says more than a time budget here.
const measured = { time: 0, iterations: 8, warmupTime: 0, warmupIterations: 1 };
const contextLimit = 128_000;

const strategies: Readonly<Record<string, () => CompressionStrategy>> = {
  'high-density': () => createHighDensityStrategy(),
  truncation: () => createTruncationStrategy(),
};

/** The texts a token counter tokenizes for `entries`, in order (what one tokenization pass covers). */
function countedTexts(entries: readonly HistoryEntry[]): string[] {
  const serialize = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  const texts: string[] = [];
  for (const entry of entries) {
    for (const block of entry.blocks) {
      if (block.type === 'text') texts.push(block.text);
      else if (block.type === 'thinking') texts.push(block.thought);
      else if (block.type === 'tool_call') texts.push(block.name, serialize(block.parameters));
      else if (block.type === 'tool_response') texts.push(block.toolName, serialize(block.result));
    }
  }
  return texts.filter((text) => text !== '');
}

/** The least CPU time (user + system, in milliseconds) `task` took in `runs` runs. */
async function leastCpuTime(runs: number, task: () => unknown): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const started = process.cpuUsage();
    await task();
    const used = process.cpuUsage(started);
    least = Math.min(least, (used.user + used.system) / 1000);
  }
  return least;
}

/** Adds every entry of `entries` in order, running the orchestrator before each assistant entry. */
async function replay(entries: readonly HistoryEntry[], tokenizer: Tokenizer, strategy: CompressionStrategy): Promise<void> {
  const history = new HistoryService({ tokenizer });
  const orchestrator = createCompressionOrchestrator({ history, strategies: [strategy], contextLimit, calibration: false });
  try {
    for (const entry of entries) {
      if (entry.speaker === 'ai' && history.length > 0) await orchestrator.ensureCompressionBeforeSend();
      // Recorded sessions hold responses whose calls were compacted away: replay them as recorded.
      history.add(entry, { allowOrphanResponses: true });
    }
    await history.waitForTokenUpdates();
  } finally {
    orchestrator.dispose();
  }
}

if (corpus !== undefined) {
  const gptTokenizer = await createGptTokenizer();
  const sessions = await readCorpusHistories(corpus, largestCorpusSessions);

  for (const [label, parsed] of Object.entries(sessions)) {
    // Plain objects, as an agent hands them over: not the parser's own frozen entries, which it would pass through.
    const entries = JSON.parse(JSON.stringify(parsed)) as HistoryEntry[];
    const texts = countedTexts(parsed);
    const sessionCharacters = measureTokenizedCharacters(parsed);
    const pass = await leastCpuTime(3, () => {
      for (const text of texts) gptTokenizer.countTokens(text);
    });
    for (const [name, create] of Object.entries(strategies)) {
      const counting = createCountingTokenizer(gptTokenizer);
      await replay(entries, counting.tokenizer, create());
      const characters = counting.stats().characters / sessionCharacters;
      const replayed = await leastCpuTime(3, () => replay(entries, gptTokenizer, create()));
      console.log(
        `${label}, ${name}: replay ÷ one tokenization pass = ${(replayed / pass).toFixed(2)} (CPU ${replayed.toFixed(0)} ÷ ${pass.toFixed(0)} ms; goal ≤ 1.2); characters tokenized ÷ characters in the session = ${characters.toFixed(3)} (goal 1.0)`,
      );
    }

    describe(`core replay: ${label} (${parsed.length} entries)`, () => {
      bench('one tokenization pass (gpt-tokenizer o200k)', () => {
        for (const text of texts) gptTokenizer.countTokens(text);
      }, measured);
      bench('trust boundary: parseHistory of every entry', () => {
        parseHistory(entries);
      }, measured);
      for (const [name, create] of Object.entries(strategies)) {
        bench(`replay, ${name}`, async () => {
          await replay(entries, gptTokenizer, create());
        }, measured);
      }
    });
  }
}
