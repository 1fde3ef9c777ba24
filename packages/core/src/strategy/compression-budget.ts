/**
 * The token budget a `compress()` call works against, computed by the orchestrator.
 */
export interface CompressionBudget {
  /** The model's context window, in tokens. */
  readonly contextLimit: number;
  /** The effective threshold, a fraction of the window in (0, 1]. */
  readonly threshold: number;
  /**
   * Tokens the whole request (history + system + tools) should take after compression:
   * `threshold × contextLimit × 0.6` (spec 000 BR-THRESH-004) unless the caller set a target explicitly.
   */
  readonly targetTokens: number;
  /** Tokens of system instructions and tool definitions: part of every request, never compressible. */
  readonly overheadTokens: number;
}

/** Share of the threshold that `compress()` aims for, so compression is not re-triggered on the next turn. */
export const COMPRESSION_TARGET_FACTOR = 0.6;

/**
 * Builds a {@link CompressionBudget}.
 *
 * @param options.targetTokens - An explicit target for the whole request; by default
 *   `threshold × contextLimit × COMPRESSION_TARGET_FACTOR`.
 */
export function createCompressionBudget(options: {
  contextLimit: number;
  threshold: number;
  overheadTokens?: number;
  targetTokens?: number;
}): CompressionBudget {
  const { contextLimit, threshold, overheadTokens = 0 } = options;
  return {
    contextLimit,
    threshold,
    overheadTokens,
    // Rounded before flooring so that 0.29 × 200000 × 0.6 (34799.99999999999) gives 34800.
    targetTokens:
      options.targetTokens ?? Math.floor(Math.round(threshold * contextLimit * COMPRESSION_TARGET_FACTOR * 1e6) / 1e6),
  };
}

/** Tokens the history alone may take to meet the budget's target: the target minus the fixed overhead, ≥ 0. */
export function getHistoryTokenTarget(budget: CompressionBudget): number {
  return Math.max(0, budget.targetTokens - budget.overheadTokens);
}
