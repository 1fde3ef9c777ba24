/**
 * When the orchestrator runs a strategy (spec 000 `StrategyTrigger`).
 *
 * - `threshold`: `compress()` runs when the context passes the threshold.
 * - `continuous`: `optimize()` runs before every send that follows new content; `compress()` still runs when the
 *   context passes the threshold.
 */
export type StrategyTrigger =
  | {
      readonly mode: 'threshold';
      /** Fraction of the context window (0..1] at which to compress when no setting overrides it. */
      readonly defaultThreshold: number;
    }
  | {
      readonly mode: 'continuous';
      /** Fraction of the context window (0..1] at which to compress when no setting overrides it. */
      readonly defaultThreshold: number;
    };

/** The threshold every built-in strategy uses by default (spec 000 BR-THRESH-002/003). */
export const DEFAULT_COMPRESSION_THRESHOLD = 0.85;
