import { createCountingTokenizer, createTokenCounter, type Tokenizer } from '@ctx/core';
import type { BenchSession } from './bench-sessions.js';

/** One tokenization pass over a session: the yardstick every replay is divided by. */
export interface TokenizationPass {
  /** Wall time of counting the whole session once with a fresh counter. */
  readonly milliseconds: number;
  /** Characters the counter tokenized: the session's characters as ctx counts them (texts, tool calls, results). */
  readonly characters: number;
  /** The session's tokens (entries, system and tools). */
  readonly tokens: number;
}

/**
 * Counts a session once, entry by entry, with a fresh token counter over `tokenizer`, each text tokenized whole (equal
 * texts once): the work of tokenizing the session's content once, which every replay is compared with.
 *
 * @param session - The session to count.
 * @param tokenizer - The tokenizer every replay uses.
 */
export function measureTokenizationPass(session: BenchSession, tokenizer: Tokenizer): TokenizationPass {
  // The yardstick is the tokenizer run over each text whole: without `additiveAtLineStarts`, whose chunk cache would
  // skip lines the session repeats (replays may profit from it; the pass they are measured against does not).
  const whole: Tokenizer = { specificationVersion: tokenizer.specificationVersion, name: tokenizer.name, countTokens: (text) => tokenizer.countTokens(text) };
  const counting = createCountingTokenizer(whole);
  const counter = createTokenCounter(counting.tokenizer);
  const started = performance.now();
  const tokens = counter.countEntries(session.history) + counter.countOverhead(session.system, session.tools);
  const milliseconds = performance.now() - started;
  return { milliseconds, characters: counting.stats().characters, tokens };
}
