/**
 * What one OpenAI model costs, in US dollars per million tokens, with where and when the price was read. OpenAI has
 * no separate cache-write price for these models: input written to the cache costs the input price, and input read
 * from the cache ("cached input") costs `cacheReadPerMillion`.
 */
export interface OpenAIModelPrice {
  /** Canonical model id, e.g. `gpt-4.1`. */
  readonly model: string;
  /** Dated snapshot ids and other names that mean the same model, e.g. `gpt-4.1-2025-04-14`. */
  readonly aliases?: readonly string[];
  /** Input tokens not read from the cache. */
  readonly inputPerMillion: number;
  /** Output tokens (reasoning tokens included). */
  readonly outputPerMillion: number;
  /** Input tokens read from the cache ("cached input"). */
  readonly cacheReadPerMillion: number;
  /** The day the price was read, `YYYY-MM-DD`. */
  readonly asOf: string;
  /** The URL of the page the price was read from. */
  readonly source: string;
}
