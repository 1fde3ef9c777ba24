import type { JSONValue, LanguageModel } from 'ai';

/** Options of {@link createAiSdkSummarizer}. */
export interface AiSdkSummarizerOptions {
  /**
   * The model that writes summaries: any AI SDK language model (`openai('gpt-4.1-mini')`,
   * `anthropic('claude-haiku-4-5')`, `createOpenAICompatible({ … })('model')`, …) or a gateway model id string.
   */
  readonly model: LanguageModel;
  /**
   * Names the summarizer in reports and errors.
   * @default the model's `provider/modelId` (the id itself for a gateway model id string)
   */
  readonly name?: string;
  /**
   * The model's context window in tokens, passed through as the summarizer's `contextWindow`: LLM strategies keep each
   * request within 80% of it. Leave it out and they use their own `summarizerWindow` setting.
   */
  readonly contextWindow?: number;
  /**
   * Time limit of one `summarize()` call in milliseconds, all retries and their waits included. When it passes the
   * call fails with reason `timeout`.
   * @default 120_000
   */
  readonly timeoutMs?: number;
  /**
   * How often a failed request is retried (the AI SDK's own `maxRetries`: it retries HTTP 408, 409, 429, 5xx and
   * network failures, with exponential backoff that honours `retry-after` / `retry-after-ms` headers). `0` disables
   * retries.
   * @default 2
   */
  readonly maxRetries?: number;
  /** Sampling temperature, passed to the model as is. @default the provider's default */
  readonly temperature?: number;
  /**
   * The system prompt when a request carries no `instructions` (LLM strategies normally send their own).
   * @default {@link defaultSummaryPrompt}
   */
  readonly system?: string;
  /** Extra HTTP headers sent with every request (HTTP-based providers only). */
  readonly headers?: Record<string, string>;
  /** Provider-specific options, passed to `generateText` as is (e.g. `{ anthropic: { thinking: … } }`). */
  readonly providerOptions?: Record<string, Record<string, JSONValue>>;
}
