import {
  compareCondensingProfiles,
  createCompressionBudget,
  type ApiProfile,
  type CompressionStrategy,
  type CondensingProfileCost,
  type TokenCounter,
} from '@ctx/core';
import { isCompactionSummary } from '../calibration/claude-code-model-calls.js';
import { createCostModelLookup } from './model-cost-sums.js';
import type { CostSession } from './simulate-compressed-cost.js';

/** What one LLM strategy's compaction would cost with each condensing model (spec 004 FR-CO-003). */
export interface CondensingCost {
  readonly strategy: string;
  /** The session it was estimated on (its largest recorded request), as named. */
  readonly session: string;
  /** The model the session ran on: the baseline condensing model. */
  readonly conversationModel: string;
  /** One row per condensing model with a price: the conversation's model first, then the cheapest first. */
  readonly rows: readonly CondensingProfileCost[];
  /** The cheapest model. */
  readonly recommended: string | undefined;
}

/** Options of {@link estimateCondensingCosts}. */
export interface EstimateCondensingCostsOptions {
  readonly sessions: readonly CostSession[];
  /** LLM strategies (others are skipped). */
  readonly strategies: readonly (() => CompressionStrategy)[];
  /** Anthropic model ids to price condensation with, besides each session's own model. */
  readonly models: readonly string[];
  readonly tokenCounter: TokenCounter;
  readonly window: number;
}

/** The model most of a session's calls used. */
function mainModel(session: CostSession): string | undefined {
  const counts = new Map<string, number>();
  for (const call of session.calls) if (call.model !== undefined) counts.set(call.model, (counts.get(call.model) ?? 0) + 1);
  return [...counts].sort((left, right) => right[1] - left[1])[0]?.[0];
}

/**
 * Prices one compaction by each LLM strategy with each condensing model (spec 004 FR-CO-003), without calling a model:
 * `compareCondensingProfiles` on the session with the largest recorded request, as it stood at that request (from
 * the last Claude Code compaction on), as if that request had just reached an 85% threshold. Each model is an API profile with its Anthropic prices; the session's own model
 * is the baseline the savings are measured against.
 *
 * @returns One comparison per LLM strategy; none when there is no LLM strategy or no priced session.
 */
export async function estimateCondensingCosts(options: EstimateCondensingCostsOptions): Promise<CondensingCost[]> {
  const lookup = createCostModelLookup();
  let largest: { session: CostSession; entryIndex: number; tokens: number } | undefined;
  for (const session of options.sessions) {
    for (const call of session.calls) {
      if (largest === undefined || call.actualTokens > largest.tokens) largest = { session, entryIndex: call.entryIndex, tokens: call.actualTokens };
    }
  }
  const model = largest === undefined ? undefined : mainModel(largest.session);
  const conversationCost = model === undefined ? undefined : lookup(model);
  if (largest === undefined || model === undefined || conversationCost === undefined) return [];
  const { conversation } = largest.session;
  const before = conversation.history.slice(0, largest.entryIndex);
  const lastCompaction = before.findLastIndex(isCompactionSummary);
  const history = before.slice(Math.max(0, lastCompaction));
  const overheadTokens = options.tokenCounter.countOverhead(conversation.system, conversation.tools);
  const profiles: ApiProfile[] = [{ id: model, model, contextWindow: options.window, costModel: conversationCost }];
  for (const id of options.models) {
    const costModel = lookup(id);
    if (costModel !== undefined && !profiles.some((profile) => profile.costModel?.name === costModel.name)) {
      profiles.push({ id, model: id, contextWindow: options.window, costModel });
    }
  }
  const context = {
    history,
    system: conversation.system ?? [],
    tools: conversation.tools ?? [],
    tokenCounter: options.tokenCounter,
    // As if the request had just reached the threshold: the compaction the strategy makes then.
    budget: createCompressionBudget({
      contextLimit: Math.min(options.window, Math.ceil((options.tokenCounter.countEntries(history) + overheadTokens) / 0.85)),
      threshold: 0.85,
      overheadTokens,
    }),
  };
  const results: CondensingCost[] = [];
  for (const create of options.strategies) {
    const strategy = create();
    if (!strategy.requiresLLM) continue;
    const comparison = await compareCondensingProfiles(strategy, context, profiles, { conversationProfile: model });
    results.push({
      strategy: strategy.name,
      session: largest.session.label,
      conversationModel: model,
      rows: comparison.rows,
      recommended: comparison.rows.slice().sort((left, right) => left.estimate.usd - right.estimate.usd)[0]?.profile,
    });
  }
  return results;
}
