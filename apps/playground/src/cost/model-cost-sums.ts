import { UnknownModelError } from '@ctx/core';
import { createAnthropicCostModel, type AnthropicCostModel, type AnthropicUsage } from '@ctx/cost-anthropic';
import { syntheticModel } from './billed-model-calls.js';

/** The label of calls whose record names no model. */
export const missingModel = '(no model)';

/** Tokens of a set of calls, by how Anthropic bills them. */
export interface UsageTotals {
  readonly calls: number;
  /** Base input tokens (neither read from nor written to the cache). */
  readonly inputTokens: number;
  readonly cacheWrite5mTokens: number;
  readonly cacheWrite1hTokens: number;
  readonly cacheReadTokens: number;
  readonly outputTokens: number;
}

/** What the calls of one model cost. */
export interface ModelCostSum extends UsageTotals {
  /** The model id as recorded; `<synthetic>` for Claude Code's own messages, `(no model)` when absent. */
  readonly model: string;
  /**
   * US dollars; null when the price table has no such model ("no price"). Claude Code's `<synthetic>` messages cost 0:
   * no API call was made.
   */
  readonly usd: number | null;
}

/** The calls of every model together. */
export interface CostTotals extends UsageTotals {
  /** US dollars of the models with a price. */
  readonly usd: number;
  /** Models whose tokens are not in `usd` because they have no price. */
  readonly unpricedModels: readonly string[];
}

/** Per-model sums, largest cost first, and the total. */
export interface CostSums {
  readonly models: readonly ModelCostSum[];
  readonly total: CostTotals;
}

/** One call to sum: its model (undefined when not recorded) and usage. */
export interface PricedCall {
  readonly model?: string | undefined;
  readonly usage: AnthropicUsage;
}

/** An empty set of tokens. */
export const noUsage: UsageTotals = { calls: 0, inputTokens: 0, cacheWrite5mTokens: 0, cacheWrite1hTokens: 0, cacheReadTokens: 0, outputTokens: 0 };

/**
 * Adds one call's usage to `totals`.
 *
 * @param totals - What was summed so far.
 * @param usage - The call's usage.
 * @returns The new totals (one more call).
 */
export function addUsage(totals: UsageTotals, usage: AnthropicUsage): UsageTotals {
  return {
    calls: totals.calls + 1,
    inputTokens: totals.inputTokens + usage.inputTokens,
    cacheWrite5mTokens: totals.cacheWrite5mTokens + (usage.cacheWriteTokens ?? 0),
    cacheWrite1hTokens: totals.cacheWrite1hTokens + (usage.cacheWrite1hTokens ?? 0),
    cacheReadTokens: totals.cacheReadTokens + (usage.cacheReadTokens ?? 0),
    outputTokens: totals.outputTokens + usage.outputTokens,
  };
}

/**
 * A cache of cost models by model id: `undefined` for a model the price table does not have.
 *
 * @returns The lookup; each model id is resolved once.
 */
export function createCostModelLookup(): (model: string) => AnthropicCostModel | undefined {
  const models = new Map<string, AnthropicCostModel | undefined>();
  return (model) => {
    if (!models.has(model)) {
      try {
        models.set(model, createAnthropicCostModel(model));
      } catch (error) {
        if (!UnknownModelError.isInstance(error)) throw error;
        models.set(model, undefined);
      }
    }
    return models.get(model);
  };
}

/**
 * Sums calls per model and prices them with `@ctx/cost-anthropic`, each call priced on its own and the prices added
 * (as ccusage does). A model the price table does not have is listed with its tokens and a null price, and its
 * tokens are left out of the dollar total (not guessed); `<synthetic>` messages cost nothing.
 *
 * @param calls - The calls, each counted once (see `dedupeBilledModelCalls`).
 * @param lookup - Where prices come from (share one across sums so each model is resolved once).
 * @returns One sum per model, most expensive first (unpriced ones last, by tokens), and the total.
 */
export function sumCostByModel(calls: Iterable<PricedCall>, lookup = createCostModelLookup()): CostSums {
  const byModel = new Map<string, { usage: UsageTotals; usd: number | null }>();
  let total = noUsage;
  let usd = 0;
  for (const call of calls) {
    const model = call.model ?? missingModel;
    const costModel = model === syntheticModel || model === missingModel ? undefined : lookup(model);
    const price = model === syntheticModel ? 0 : costModel === undefined ? null : costModel.price(call.usage);
    const sum = byModel.get(model) ?? { usage: noUsage, usd: price === null ? null : 0 };
    byModel.set(model, { usage: addUsage(sum.usage, call.usage), usd: sum.usd === null || price === null ? null : sum.usd + price });
    total = addUsage(total, call.usage);
    usd += price ?? 0;
  }
  const models = [...byModel].map(([model, sum]): ModelCostSum => ({ model, ...sum.usage, usd: sum.usd }));
  const tokens = (sum: UsageTotals) => sum.inputTokens + sum.cacheWrite5mTokens + sum.cacheWrite1hTokens + sum.cacheReadTokens + sum.outputTokens;
  models.sort((a, b) => (b.usd ?? -1) - (a.usd ?? -1) || tokens(b) - tokens(a) || a.model.localeCompare(b.model));
  return {
    models,
    total: { ...total, usd, unpricedModels: models.filter((model) => model.usd === null).map((model) => model.model) },
  };
}
