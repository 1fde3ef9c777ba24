import type { Tokenizer } from './tokenizer.js';

/** What a {@link CountingTokenizer} has seen since it was created or last reset. */
export interface TokenizerUsage {
  /** `countTokens` calls. */
  readonly calls: number;
  /** Characters (UTF-16 code units, `text.length`) of every text passed to `countTokens`, repeats included. */
  readonly characters: number;
  /** Tokens the wrapped tokenizer returned, summed. */
  readonly tokens: number;
  /** Wall-clock milliseconds spent inside the wrapped tokenizer's `countTokens`. */
  readonly milliseconds: number;
}

/** A tokenizer that records how much text went through it; see {@link createCountingTokenizer}. */
export interface CountingTokenizer {
  /** Hand this to `HistoryService`, `createTokenCounter`, … in place of the wrapped one: it counts the same. */
  readonly tokenizer: Tokenizer;
  /** Usage since creation or the last {@link CountingTokenizer.reset}. */
  stats(): TokenizerUsage;
  /** Starts the figures again from 0. */
  reset(): void;
}

/** Options of {@link createCountingTokenizer}. */
export interface CountingTokenizerOptions {
  /**
   * Reads a clock in milliseconds, for {@link TokenizerUsage.milliseconds}.
   * @default `performance.now`
   */
  readonly now?: () => number;
}

/**
 * Wraps a tokenizer so that every text it tokenizes is counted: calls, characters, tokens and time spent. Meant for
 * benchmarks and diagnostics, e.g. "characters tokenized ÷ characters in the session" (1.0 means every text was
 * tokenized exactly once) or the time of a turn without the tokenizer's share. The wrapper returns exactly what the
 * wrapped tokenizer returns, and lets its errors through (a failed call still counts as a call and its characters).
 *
 * @param tokenizer - The tokenizer to wrap; it is not modified.
 * @param options - The clock to time calls with.
 * @returns The wrapping tokenizer (same `name`, `specificationVersion` and `additiveAtLineStarts`) and its figures.
 *
 * @example
 * ```ts
 * const counting = createCountingTokenizer(await createGptTokenizer());
 * const history = new HistoryService({ tokenizer: counting.tokenizer });
 * // … replay a session …
 * await history.waitForTokenUpdates();
 * const { characters, milliseconds } = counting.stats();
 * ```
 */
export function createCountingTokenizer(tokenizer: Tokenizer, options: CountingTokenizerOptions = {}): CountingTokenizer {
  const now = options.now ?? (() => globalThis.performance.now());
  let calls = 0;
  let characters = 0;
  let tokens = 0;
  let milliseconds = 0;
  return {
    tokenizer: {
      specificationVersion: tokenizer.specificationVersion,
      name: tokenizer.name,
      ...(tokenizer.additiveAtLineStarts === undefined ? {} : { additiveAtLineStarts: tokenizer.additiveAtLineStarts }),
      countTokens(text) {
        calls += 1;
        characters += text.length;
        const started = now();
        try {
          const count = tokenizer.countTokens(text);
          tokens += count;
          return count;
        } finally {
          milliseconds += now() - started;
        }
      },
    },
    stats: () => ({ calls, characters, tokens, milliseconds }),
    reset() {
      calls = 0;
      characters = 0;
      tokens = 0;
      milliseconds = 0;
    },
  };
}
