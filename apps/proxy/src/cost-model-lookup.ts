import { UnknownModelError, type CostModel } from '@ctx/core';
import { createAnthropicCostModel } from '@ctx/cost-anthropic';
import { createOpenAICostModel } from '@ctx/cost-openai';

/**
 * Finds the prices of a request's `model` in `@ctx/cost-anthropic`, then `@ctx/cost-openai`; undefined for a model
 * neither knows (its conversation is then compressed without cache-aware planning). Each id is resolved once.
 */
export function createCostModelLookup(): (model: unknown) => CostModel | undefined {
  const found = new Map<string, CostModel | undefined>();
  const tryCreate = (create: () => CostModel): CostModel | undefined => {
    try {
      return create();
    } catch (error) {
      if (UnknownModelError.isInstance(error)) return undefined;
      throw error;
    }
  };
  return (model) => {
    if (typeof model !== 'string' || model === '') return undefined;
    if (!found.has(model)) {
      found.set(model, tryCreate(() => createAnthropicCostModel(model)) ?? tryCreate(() => createOpenAICostModel(model)));
    }
    return found.get(model);
  };
}
