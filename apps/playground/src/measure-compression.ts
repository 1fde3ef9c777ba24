import type { Conversation, TokenCounter } from '@ctx/core';
import {
  checkProviderValidity,
  findNewValidityProblems,
  measureRetention,
  type ProviderValidity,
  type RetentionReport,
} from '@ctx/retention';

/** How a compressed conversation compares with the original. */
export interface CompressionMeasurement {
  /** Request tokens before: the history plus the system instructions and tool definitions. */
  readonly tokensBefore: number;
  /** Request tokens after: the compressed history plus the (unchanged) system instructions and tool definitions. */
  readonly tokensAfter: number;
  /** Tokens of the history alone before, the figure strategies' own warnings and targets count in. */
  readonly historyTokensBefore: number;
  /** Tokens of the compressed history alone. */
  readonly historyTokensAfter: number;
  /** Share of request tokens removed, 0..1. */
  readonly reduction: number;
  readonly entriesBefore: number;
  readonly entriesAfter: number;
  /**
   * What the compressed conversation still holds (`@ctx/retention`). Measured on the readable history when one is
   * given: content behind a lossless reference counts as kept.
   */
  readonly retention: RetentionReport;
  /** True when retention was measured through references (the readable history differs from the compressed one). */
  readonly retentionThroughReferences: boolean;
  /** Problems the compressed request has for each provider that the original did not already have. */
  readonly newProblems: ProviderValidity;
}

/**
 * Measures a compression: request and history tokens, entries, what was retained (user texts, latest file states, errors, thinking —
 * `@ctx/retention`), and whether the result is still a valid Anthropic and OpenAI request.
 *
 * @param before - The original conversation.
 * @param after - The compressed conversation: tokens, entries and validity are measured on it.
 * @param tokenCounter - Counts the tokens.
 * @param readable - `after` with references resolved (see `PipelineResult.readable`); retention is measured on it.
 * @returns The measurement.
 */
export function measureCompression(
  before: Conversation,
  after: Conversation,
  tokenCounter: TokenCounter,
  readable: Conversation = after,
): CompressionMeasurement {
  const historyTokensBefore = tokenCounter.countEntries(before.history);
  const historyTokensAfter = tokenCounter.countEntries(after.history);
  const tokensBefore = historyTokensBefore + tokenCounter.countOverhead(before.system, before.tools);
  const tokensAfter = historyTokensAfter + tokenCounter.countOverhead(after.system, after.tools);
  return {
    tokensBefore,
    tokensAfter,
    historyTokensBefore,
    historyTokensAfter,
    reduction: tokensBefore === 0 ? 0 : 1 - tokensAfter / tokensBefore,
    entriesBefore: before.history.length,
    entriesAfter: after.history.length,
    retention: measureRetention(before, readable),
    retentionThroughReferences: readable.history !== after.history,
    newProblems: findNewValidityProblems(checkProviderValidity(before), checkProviderValidity(after)),
  };
}
