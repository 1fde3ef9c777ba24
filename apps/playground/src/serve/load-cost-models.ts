import type * as CostAnthropic from '@ctx/cost-anthropic';

type CostAnthropicModule = typeof CostAnthropic;

/** The models the installed cost model prices, and the price of a request's input tokens. */
export interface CostModels {
  readonly models: readonly string[];
  /** US dollars for `tokens` uncached input tokens of `model`. */
  readonly priceInput: (model: string, tokens: number) => number;
}

/**
 * Loads `@ctx/cost-anthropic` when it is installed: the page then prices each request before and after. Undefined
 * when it is not installed (the page shows no cost).
 */
export async function loadCostModels(): Promise<CostModels | undefined> {
  let module: CostAnthropicModule;
  try {
    module = await import('@ctx/cost-anthropic');
  } catch {
    return undefined;
  }
  return {
    models: module.anthropicPrices.map((price) => price.model),
    priceInput: (model, tokens) => module.createAnthropicCostModel(model).price({ inputTokens: tokens, outputTokens: 0 }),
  };
}
