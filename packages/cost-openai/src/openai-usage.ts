import type { TokenUsage } from '@ctx/core';

/** The `usage` object of an OpenAI Chat Completions response. */
export interface OpenAIChatCompletionsUsage {
  /** All input tokens, cached ones included. */
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number } | null;
}

/** The `usage` object of an OpenAI Responses API response. */
export interface OpenAIResponsesUsage {
  /** All input tokens, cached ones included. */
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly input_tokens_details?: { readonly cached_tokens?: number } | null;
}

/** A token count as reported, or 0 when it is absent, negative or not a finite number. */
function count(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Converts an OpenAI `usage` object, from Chat Completions or from the Responses API, to a {@link TokenUsage}
 * (spec 004 FR-CO-002). OpenAI's prompt/input tokens INCLUDE the cached tokens, so `inputTokens` is the total minus
 * the cached tokens (never below 0) and `cacheReadTokens` is the cached tokens.
 *
 * @param usage - the `usage` object of a response.
 * @returns the usage split the way OpenAI bills it; absent counts are 0.
 * @example
 * ```ts
 * // completion.usage: { prompt_tokens: 1000, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 800 } }
 * const usage = fromOpenAIUsage(completion.usage);
 * usage.inputTokens; // 200
 * usage.cacheReadTokens; // 800
 * ```
 */
export function fromOpenAIUsage(usage: OpenAIChatCompletionsUsage | OpenAIResponsesUsage): TokenUsage {
  const chat = usage as OpenAIChatCompletionsUsage;
  const responses = usage as OpenAIResponsesUsage;
  const total = count(chat.prompt_tokens ?? responses.input_tokens);
  const cached = count(chat.prompt_tokens_details?.cached_tokens ?? responses.input_tokens_details?.cached_tokens);
  return {
    inputTokens: Math.max(0, total - cached),
    outputTokens: count(chat.completion_tokens ?? responses.output_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}
