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
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Share of tokens removed, 0..1. */
  readonly reduction: number;
  readonly entriesBefore: number;
  readonly entriesAfter: number;
  readonly retention: RetentionReport;
  /** Problems the compressed request has for each provider that the original did not already have. */
  readonly newProblems: ProviderValidity;
}

/**
 * Measures a compression: tokens, entries, what was retained (user texts, latest file states, errors, thinking —
 * `@ctx/retention`), and whether the result is still a valid Anthropic and OpenAI request.
 */
export function measureCompression(
  before: Conversation,
  after: Conversation,
  tokenCounter: TokenCounter,
): CompressionMeasurement {
  const tokens = (conversation: Conversation) =>
    tokenCounter.countEntries(conversation.history) + tokenCounter.countOverhead(conversation.system, conversation.tools);
  const tokensBefore = tokens(before);
  const tokensAfter = tokens(after);
  return {
    tokensBefore,
    tokensAfter,
    reduction: tokensBefore === 0 ? 0 : 1 - tokensAfter / tokensBefore,
    entriesBefore: before.history.length,
    entriesAfter: after.history.length,
    retention: measureRetention(before, after),
    newProblems: findNewValidityProblems(checkProviderValidity(before), checkProviderValidity(after)),
  };
}
