/** Tokens of one model call, split the way providers bill them. */
export interface TokenUsage {
  /** Input tokens billed at the base input price (not read from or written to the cache). */
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
}

/** A price, in US dollars, with the usage it was computed from. */
export interface CostEstimate {
  readonly usd: number;
  /** Model calls the estimate includes (0 for strategies that never call a model). */
  readonly llmCalls: number;
  readonly usage: TokenUsage;
}

/**
 * Prices token usage for one model. Implemented by `@ctx/cost-*` packages; strategies use it in `estimateCost`.
 */
export interface CostModel {
  readonly specificationVersion: 'v1';
  /** The priced model, e.g. `claude-sonnet-4-5`. */
  readonly name: string;
  price(usage: TokenUsage): number;
}
