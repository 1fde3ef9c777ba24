import { COMPRESSION_TARGET_FACTOR, createCompressionBudget, type CompressionBudget } from '../strategy/compression-budget.js';
import { decideCompression, type CompressionDecision } from '../thresholds/decide-compression.js';
import type { EffectiveCompressionSettings } from './effective-settings.js';
import type { RequestEstimate } from './request-estimator.js';

/** The limits one turn works against, in the provider's (calibrated) tokens, and the budget handed to strategies. */
export interface RequestBudget {
  /** `threshold × contextLimit`. */
  readonly thresholdTokens: number;
  /** `contextLimit − reservedOutputTokens`: the hard limit. */
  readonly availableTokens: number;
  /** What compression aims for, for the whole request. */
  readonly targetTokens: number;
  /**
   * False when the system instructions, tool definitions and pending message alone reach the threshold: no
   * compression of the history can bring the request under it.
   */
  readonly thresholdReachable: boolean;
  /** False when they alone do not fit the window: nothing can make the request fit. */
  readonly fitsAtAll: boolean;
  /**
   * The budget for `compress()`, in our tokenizer's units (strategies count with the history's token counter):
   * the calibrated limits divided by the calibration factor. Its `overheadTokens` include the pending message.
   */
  readonly strategyBudget: CompressionBudget;
}

/** Inputs of {@link planRequestBudget}. */
export interface RequestBudgetInput {
  readonly contextLimit: number;
  readonly threshold: number;
  readonly reservedOutputTokens: number;
  /** An explicit whole-request target (the orchestrator's `targetTokens` option). */
  readonly targetTokens: number | undefined;
  readonly estimate: RequestEstimate;
  /** Our tokens of system and tools (uncalibrated). */
  readonly overheadTokens: number;
  /** Our tokens of the pending message (uncalibrated). */
  readonly pendingTokens: number;
}

/**
 * Works out a turn's limits from the window, the threshold and the calibrated request (spec 000 BR-THRESH-004:
 * the target is `threshold × contextLimit × 0.6`). When the fixed part of the request (system, tools, pending
 * message) already takes the target, the target becomes that fixed part plus 60% of what is left under the
 * threshold (or, when the threshold cannot be met, under the window), so strategies are never asked to fit the
 * history into nothing.
 */
export function planRequestBudget(input: RequestBudgetInput): RequestBudget {
  const { contextLimit, threshold, reservedOutputTokens, estimate } = input;
  const thresholdTokens = Math.round(threshold * contextLimit * 1e6) / 1e6;
  const availableTokens = contextLimit - reservedOutputTokens;
  const fixedTokens = estimate.overheadTokens + estimate.pendingTokens;
  const thresholdReachable = fixedTokens < thresholdTokens;
  const fitsAtAll = fixedTokens <= availableTokens;
  const limit = thresholdReachable ? Math.min(thresholdTokens, availableTokens) : availableTokens;
  let targetTokens =
    input.targetTokens ?? Math.floor(Math.round(threshold * contextLimit * COMPRESSION_TARGET_FACTOR * 1e6) / 1e6);
  if (targetTokens <= fixedTokens && fitsAtAll) {
    targetTokens = fixedTokens + Math.floor((limit - fixedTokens) * COMPRESSION_TARGET_FACTOR);
  }
  targetTokens = Math.min(targetTokens, Math.max(0, availableTokens));
  const factor = estimate.calibration.factor;
  const toOurTokens = (tokens: number) => Math.max(0, Math.floor(tokens / factor));
  return {
    thresholdTokens,
    availableTokens,
    targetTokens,
    thresholdReachable,
    fitsAtAll,
    strategyBudget: createCompressionBudget({
      contextLimit: Math.max(1, toOurTokens(contextLimit)),
      threshold,
      overheadTokens: input.overheadTokens + input.pendingTokens,
      targetTokens: toOurTokens(targetTokens),
    }),
  };
}

/**
 * Decides on calibrated figures; when the fixed part of the request alone reaches the threshold, only the absolute
 * trigger (the request would not fit with the safety buffer) counts, so an unreachable threshold does not make every
 * turn compress.
 */
export function decideTurn(
  estimate: RequestEstimate,
  budget: RequestBudget,
  settings: Pick<EffectiveCompressionSettings, 'contextLimit' | 'threshold' | 'reservedOutputTokens'>,
): CompressionDecision {
  const decision = decideCompression({
    currentTokens: estimate.calibratedTokens - estimate.pendingTokens,
    pendingTokens: estimate.pendingTokens,
    contextLimit: settings.contextLimit,
    threshold: settings.threshold.value,
    reservedOutputTokens: settings.reservedOutputTokens,
  });
  if (budget.thresholdReachable || decision.trigger !== 'threshold') return decision;
  const overAbsolute = decision.projectedTokens > decision.allowedTokens;
  return { ...decision, compress: overAbsolute, trigger: overAbsolute ? 'context-window' : undefined };
}
