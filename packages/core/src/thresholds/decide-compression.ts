import { TOKEN_BUFFER_PERCENTAGE } from './threshold-constants.js';

/** The figures a compression decision is made from. */
export interface CompressionDecisionInput {
  /** Tokens of the request as it stands (history after density optimization, system, tools). */
  readonly currentTokens: number;
  /** Tokens about to be added: the message being sent (spec 004 "last message tokens"). */
  readonly pendingTokens?: number;
  readonly contextLimit: number;
  /** Effective threshold, a fraction in (0, 1]. */
  readonly threshold: number;
  /** Tokens kept free for the model's answer (`max_tokens`). */
  readonly reservedOutputTokens?: number;
}

/** Whether to compress, and why. */
export interface CompressionDecision {
  readonly compress: boolean;
  /**
   * - `threshold`: the request reached `threshold × contextLimit` (spec 000 BR-THRESH, spec 004 percentage trigger).
   * - `context-window`: the request exceeds the window minus the 10% buffer and the reserved output tokens
   *   (spec 004 absolute trigger), even though the threshold was not reached.
   */
  readonly trigger: 'threshold' | 'context-window' | undefined;
  /** `currentTokens + pendingTokens`. */
  readonly projectedTokens: number;
  /** `threshold × contextLimit`. */
  readonly thresholdTokens: number;
  /** `contextLimit × (1 − 10%) − reservedOutputTokens`. */
  readonly allowedTokens: number;
  /** `projectedTokens` as a percentage of the window. */
  readonly contextPercent: number;
}

/**
 * Decides whether to compress (spec 000 `shouldCompress`, spec 004 FR-TH-003): when the projected request reaches
 * the threshold share of the window, or exceeds what fits with the safety buffer and the reserved output tokens.
 * Pass the token count *after* density optimization (BR-THRESH-005).
 */
export function decideCompression(input: CompressionDecisionInput): CompressionDecision {
  const projectedTokens = input.currentTokens + (input.pendingTokens ?? 0);
  // Rounded so that binary floating point does not move the boundary (0.55 × 200000 = 110000.00000000001).
  const thresholdTokens = Math.round(input.threshold * input.contextLimit * 1e6) / 1e6;
  const allowedTokens = input.contextLimit * (1 - TOKEN_BUFFER_PERCENTAGE) - (input.reservedOutputTokens ?? 0);
  const contextPercent = input.contextLimit > 0 ? (100 * projectedTokens) / input.contextLimit : Infinity;
  const trigger =
    projectedTokens >= thresholdTokens ? 'threshold' : projectedTokens > allowedTokens ? 'context-window' : undefined;
  return { compress: trigger !== undefined, trigger, projectedTokens, thresholdTokens, allowedTokens, contextPercent };
}
