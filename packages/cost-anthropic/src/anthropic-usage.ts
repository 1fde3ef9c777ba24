import type { TokenUsage } from '@ctx/core';

/**
 * Token usage of one Anthropic call. `cacheWriteTokens` are 5-minute cache writes; 1-hour writes, priced higher, are
 * counted apart in `cacheWrite1hTokens`.
 */
export interface AnthropicUsage extends TokenUsage {
  /** Tokens written to the 1-hour cache. */
  readonly cacheWrite1hTokens?: number;
}

/** The `usage` object of an Anthropic Messages API response (and of Claude Code session records). */
export interface AnthropicApiUsage {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_creation_input_tokens?: number;
  readonly cache_read_input_tokens?: number;
  readonly cache_creation?: {
    readonly ephemeral_5m_input_tokens?: number;
    readonly ephemeral_1h_input_tokens?: number;
  };
}

/** A token count as reported, or 0 when it is absent, negative or not a finite number. */
function count(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Converts an Anthropic `usage` object to {@link AnthropicUsage} (spec 004 FR-CO-002). Anthropic's `input_tokens`
 * already exclude cache reads and writes, so they are taken as they are. Cache writes are split by TTL when the
 * response has `cache_creation`; otherwise all of `cache_creation_input_tokens` count as 5-minute writes (the default
 * TTL).
 *
 * @param usage - the `usage` object of a response.
 * @returns the usage split the way Anthropic bills it; absent counts are 0.
 * @example
 * ```ts
 * const usage = fromAnthropicUsage(response.usage);
 * const usd = createAnthropicCostModel(response.model).price(usage);
 * ```
 */
export function fromAnthropicUsage(usage: AnthropicApiUsage): AnthropicUsage {
  const split = usage.cache_creation;
  const hasSplit =
    split !== undefined &&
    (split.ephemeral_5m_input_tokens !== undefined || split.ephemeral_1h_input_tokens !== undefined);
  return {
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    cacheReadTokens: count(usage.cache_read_input_tokens),
    cacheWriteTokens: hasSplit ? count(split.ephemeral_5m_input_tokens) : count(usage.cache_creation_input_tokens),
    cacheWrite1hTokens: hasSplit ? count(split.ephemeral_1h_input_tokens) : 0,
  };
}
