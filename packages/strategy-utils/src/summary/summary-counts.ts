import type { SummarizeResult } from '@ctx/core';

/**
 * The `metadata.counts` an LLM strategy reports for its summary: how many entries it summarized, the summary's
 * size, whether it was the mechanical fallback, and what the model call cost (input, output, cache read and write
 * tokens, when the summarizer reported them) for cost reporting.
 *
 * @param summary - What was summarized and how.
 * @returns Counts for `CompressionMetadata.counts`.
 * @example
 * ```ts
 * metadata: { …, counts: summaryCounts({ entriesSummarized: 12, summaryTokens: 800, fallback: false, usage }) }
 * ```
 */
export function summaryCounts(summary: {
  readonly entriesSummarized: number;
  readonly summaryTokens: number;
  readonly fallback: boolean;
  readonly usage?: SummarizeResult['usage'];
}): Record<string, number> {
  const { usage } = summary;
  return {
    entriesSummarized: summary.entriesSummarized,
    summaryTokens: summary.summaryTokens,
    fallbackSummary: summary.fallback ? 1 : 0,
    ...(usage === undefined ? {} : { summarizerInputTokens: usage.inputTokens, summarizerOutputTokens: usage.outputTokens }),
    ...(usage?.cacheReadTokens === undefined ? {} : { summarizerCacheReadTokens: usage.cacheReadTokens }),
    ...(usage?.cacheWriteTokens === undefined ? {} : { summarizerCacheWriteTokens: usage.cacheWriteTokens }),
  };
}
