/**
 * What one Anthropic model costs, in US dollars per million tokens, with where and when the price was read.
 */
export interface AnthropicModelPrice {
  /** Canonical model id, e.g. `claude-sonnet-4-5`. */
  readonly model: string;
  /** Dated ids and other names that mean the same model, e.g. `claude-sonnet-4-5-20250929`. */
  readonly aliases?: readonly string[];
  /** Base input tokens (neither read from nor written to the cache). */
  readonly inputPerMillion: number;
  /** Output tokens (thinking included). */
  readonly outputPerMillion: number;
  /** Tokens written to the 5-minute cache (the default TTL; 1.25 × input on Anthropic's page). */
  readonly cacheWrite5mPerMillion: number;
  /** Tokens written to the 1-hour cache (2 × input on Anthropic's page). */
  readonly cacheWrite1hPerMillion: number;
  /** Tokens read from the cache ("cache hits and refreshes"; 0.1 × input on Anthropic's page). */
  readonly cacheReadPerMillion: number;
  /** The day the price was read, `YYYY-MM-DD`. */
  readonly asOf: string;
  /** The pricing page URL the price was read from. */
  readonly source: string;
}
