import { formatRoundedCount } from '../text/format-count.js';
import type { CostModel } from '../strategy/cost-model.js';
import { unitPricesOf } from './unit-prices.js';

/** What {@link weighCompaction} weighs. Token figures are of the whole request (history, system, tools). */
export interface CompactionWeighing {
  /** Prices the conversation's model: the one whose prompt cache a compaction rewrites. */
  readonly costModel: CostModel;
  /** The request before the compaction. */
  readonly tokensBefore: number;
  /** The request after it. */
  readonly tokensAfter: number;
  /**
   * Tokens at the start of the request that the compaction leaves byte for byte as they were (tools, system and
   * the entries before the first one it changed): the provider still reads them from its cache.
   */
  readonly unchangedPrefixTokens: number;
  /**
   * Tokens at the start of the request before the compaction that the provider has cached: what the last request
   * sent, as far as the history still starts with it. Content added since the last call is not cached, so changing
   * it costs nothing extra. Default: all of `tokensBefore` (the cautious assumption).
   */
  readonly cachedTokens?: number;
  /** What the compaction itself costs, in US dollars (its summarizer calls); 0 for a mechanical strategy. */
  readonly compactionUsd?: number;
  /**
   * Model calls the saving is counted over: the calls the conversation is expected to make with the smaller
   * request before it would be rewritten anyway.
   */
  readonly horizonTurns: number;
}

/** Whether a compaction pays for itself, and the figures that say so. */
export interface CompactionEconomics {
  /**
   * `netUsd ≥ 0`: the compaction does not lose money. A pass that saves nothing but rewrites nothing cached either
   * (it only changes content not sent yet) costs nothing and pays.
   */
  readonly pays: boolean;
  /** Saving minus costs over the horizon, in US dollars: what compacting now earns (negative: what it loses). */
  readonly netUsd: number;
  /**
   * What the smaller request saves over the horizon: on the next call the removed tokens are not written (or read),
   * on each later one they are not read from the cache.
   */
  readonly savedUsd: number;
  /** The one-off extra of writing cached tokens to the cache again instead of reading them. */
  readonly cacheRewriteUsd: number;
  /** The compaction's own cost (summarizer calls). */
  readonly compactionUsd: number;
  /** Tokens removed from the request. */
  readonly savedTokens: number;
  /** Cached tokens of the request before the compaction that are no longer a cached prefix after it. */
  readonly rewrittenTokens: number;
  readonly horizonTurns: number;
  /** Calls after which the compaction has paid for itself; `Infinity` when it never does. */
  readonly breakEvenTurns: number;
  /** One sentence for reports. */
  readonly message: string;
}

const usd = (value: number) => `$${Math.abs(value) < 0.01 ? value.toFixed(4) : value.toFixed(2)}`;

/**
 * Weighs a compaction against the prompt cache it breaks. Providers bill a cached prefix at a fraction of the input
 * price; a compaction changes the request from its first rewritten entry on, so the next call writes the cached
 * tokens after that point again instead of reading them. Assuming the cache is warm (the last call was within its
 * lifetime), over `horizonTurns` calls, with `lost = max(0, cachedTokens − unchangedPrefixTokens)`:
 *
 * `net = savedTokens × cacheWrite + (horizon − 1) × savedTokens × cacheRead − lost × (cacheWrite − cacheRead) − compactionUsd`
 *
 * Tokens added by later turns are paid the same with or without the compaction and cancel out; so does content that
 * was never sent (a change there costs nothing extra). For a model without cache prices (cache read = cache write =
 * input) the rewrite costs nothing extra and any saving pays.
 *
 * @example
 * ```ts
 * // Sonnet 4.5: dropping 200 tokens near the start of a 100k request does not pay; 130k of 170k does.
 * weighCompaction({ costModel, tokensBefore: 100_000, tokensAfter: 99_800, unchangedPrefixTokens: 2_000, horizonTurns: 10 }).pays; // false
 * ```
 */
export function weighCompaction(weighing: CompactionWeighing): CompactionEconomics {
  const prices = unitPricesOf(weighing.costModel);
  const savedTokens = Math.max(0, weighing.tokensBefore - weighing.tokensAfter);
  const cachedTokens = Math.min(weighing.cachedTokens ?? weighing.tokensBefore, weighing.tokensBefore);
  const rewrittenTokens = Math.max(0, cachedTokens - weighing.unchangedPrefixTokens);
  const compactionUsd = weighing.compactionUsd ?? 0;
  const horizonTurns = Math.max(1, weighing.horizonTurns);
  const savedPerTurn = savedTokens * prices.cacheRead;
  const savedUsd = savedTokens * prices.cacheWrite + (horizonTurns - 1) * savedPerTurn;
  const cacheRewriteUsd = rewrittenTokens * Math.max(0, prices.cacheWrite - prices.cacheRead);
  const oneOff = cacheRewriteUsd + compactionUsd;
  const netUsd = savedUsd - oneOff;
  const firstCall = savedTokens * prices.cacheWrite;
  const breakEvenTurns =
    savedTokens === 0 ? Infinity : oneOff <= firstCall ? 1 : savedPerTurn > 0 ? 1 + Math.ceil((oneOff - firstCall) / savedPerTurn) : Infinity;
  const pays = netUsd >= 0;
  const costs = `${usd(oneOff)} (${formatRoundedCount(rewrittenTokens)} tokens written to the cache again${compactionUsd > 0 ? `, ${usd(compactionUsd)} of summarizer calls` : ''})`;
  const message = pays
    ? `pays: saves ${usd(savedUsd)} over ${horizonTurns} calls for ${costs}`
    : `does not pay: would save ${usd(savedUsd)} over ${horizonTurns} calls (${formatRoundedCount(savedTokens)} tokens) but cost ${costs}${Number.isFinite(breakEvenTurns) ? `; it pays after ${breakEvenTurns} calls` : ''}`;
  return {
    pays,
    netUsd,
    savedUsd,
    cacheRewriteUsd,
    compactionUsd,
    savedTokens,
    rewrittenTokens,
    horizonTurns,
    breakEvenTurns,
    message,
  };
}
