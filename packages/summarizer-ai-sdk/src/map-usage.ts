import type { SummarizeResult } from '@ctx/core';
import type { LanguageModelUsage } from 'ai';

/**
 * Maps the AI SDK's usage report to the summarizer's: input and output tokens, plus cache reads and writes when the
 * provider reported them (`usage.inputTokenDetails`, filled by AI SDK 6 and 7 for every provider: OpenAI-compatible
 * providers report cache reads, Anthropic reads and writes).
 *
 * @param usage - `result.usage` of `generateText`.
 * @returns The usage, or `undefined` when the provider reported no token counts at all.
 */
export function mapUsage(usage: LanguageModelUsage): SummarizeResult['usage'] {
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  const { cacheReadTokens, cacheWriteTokens } = usage.inputTokenDetails;
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    ...(cacheReadTokens === undefined ? {} : { cacheReadTokens }),
    ...(cacheWriteTokens === undefined ? {} : { cacheWriteTokens }),
  };
}
