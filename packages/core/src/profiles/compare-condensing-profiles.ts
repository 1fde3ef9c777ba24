import { estimateStrategyCost, type StrategyCostEstimate } from '../cost/estimate-strategy-cost.js';
import { InvalidApiProfileError } from '../errors/invalid-api-profile-error.js';
import type { CompressionContext } from '../strategy/compression-context.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import type { ApiProfile } from './api-profile.js';

/** What one profile would cost as the condensing profile. */
export interface CondensingProfileCost {
  readonly profile: string;
  readonly model: string;
  /** The estimate with this profile's prices. */
  readonly estimate: StrategyCostEstimate;
  /** US dollars saved against condensing with the conversation's profile (negative: it costs more). */
  readonly savingsUsd: number;
  /** The same as a share of the conversation profile's cost, 0..1 (0 when that costs nothing). */
  readonly savingsShare: number;
}

/** The cost of one compaction per candidate condensing profile (spec 004 FR-CO-003). */
export interface CondensingProfileComparison {
  /** The conversation's profile first, then every other profile with a cost model, cheapest first. */
  readonly rows: readonly CondensingProfileCost[];
  /** The cheapest profile that has a summarizer (undefined when none has one). */
  readonly recommended: string | undefined;
}

/**
 * Prices one `compress()` of `strategy` on `context` with each profile's cost model as the condensing model
 * (spec 004 FR-CO-003 "cost comparison, savings, recommendation"): what a cheaper condensing profile saves against
 * condensing with the conversation's own model. Profiles without a cost model are left out.
 *
 * @throws {@link InvalidApiProfileError} when `conversationProfile` is not one of `profiles` or has no cost model.
 */
export async function compareCondensingProfiles(
  strategy: CompressionStrategy,
  context: CompressionContext,
  profiles: readonly ApiProfile[],
  options: { readonly conversationProfile: string; readonly horizonTurns?: number },
): Promise<CondensingProfileComparison> {
  const conversation = profiles.find((profile) => profile.id === options.conversationProfile);
  if (conversation?.costModel === undefined) {
    throw new InvalidApiProfileError({
      issues: [
        {
          path: 'conversationProfile',
          message:
            conversation === undefined
              ? `no API profile has the id "${options.conversationProfile}"; known: ${profiles.map((profile) => `"${profile.id}"`).join(', ') || 'none'}`
              : `the profile "${conversation.id}" has no cost model to compare against`,
        },
      ],
    });
  }
  const priced = profiles.filter((profile) => profile.costModel !== undefined);
  const estimates = await Promise.all(
    priced.map((profile) =>
      estimateStrategyCost(strategy, context, {
        condensingCostModel: profile.costModel!,
        conversationCostModel: conversation.costModel!,
        assumeSummarizer: true,
        ...(options.horizonTurns === undefined ? {} : { horizonTurns: options.horizonTurns }),
      }),
    ),
  );
  const baseline = estimates[priced.indexOf(conversation)]!.usd;
  const rows = priced.map((profile, index): CondensingProfileCost => {
    const estimate = estimates[index]!;
    const savingsUsd = baseline - estimate.usd;
    return {
      profile: profile.id,
      model: profile.model,
      estimate,
      savingsUsd,
      savingsShare: baseline > 0 ? savingsUsd / baseline : 0,
    };
  });
  const [first, ...others] = [rows.find((row) => row.profile === conversation.id)!, ...rows.filter((row) => row.profile !== conversation.id)];
  others.sort((left, right) => left.estimate.usd - right.estimate.usd);
  const withSummarizer = [first, ...others]
    .filter((row) => profiles.find((profile) => profile.id === row.profile)?.summarizer !== undefined)
    .sort((left, right) => left.estimate.usd - right.estimate.usd);
  return { rows: [first, ...others], recommended: withSummarizer[0]?.profile };
}
