import type { HistoryEntry } from '../history/history-entry.js';

/** What a strategy asks a {@link Summarizer} to summarize. */
export interface SummarizeRequest {
  /** The entries to summarize, oldest first. */
  readonly entries: readonly HistoryEntry[];
  /** Instructions for the summary (the strategy's prompt). */
  readonly instructions?: string;
  /** Upper bound for the summary's length, in tokens. */
  readonly maxOutputTokens?: number;
  readonly signal?: AbortSignal;
}

/** The summary text and, when the model reported it, what it cost in tokens. */
export interface SummarizeResult {
  readonly text: string;
  readonly usage?: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly cacheReadTokens?: number;
    readonly cacheWriteTokens?: number;
  };
}

/**
 * Turns entries into a summary, usually with an LLM call. Supplied by the application (it owns the API keys and the
 * model choice) and passed to LLM strategies through `CompressionContext.summarizer`. A call that cannot produce a
 * summary throws `SummarizerError` with its reason (timeout, rate-limited, …).
 */
export interface Summarizer {
  readonly specificationVersion: 'v1';
  /** Identifies the summarizer (model) in reports. */
  readonly name: string;
  /**
   * The summarizer model's context window, in tokens. LLM strategies keep each request within 80% of it (spec 002
   * §6.2: oversize tool outputs cut first, then the oldest entries dropped); without it they use their own
   * `summarizerWindow` setting.
   */
  readonly contextWindow?: number;
  summarize(request: SummarizeRequest): Promise<SummarizeResult>;
}
