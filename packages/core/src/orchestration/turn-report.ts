import type { SummarizerCall } from '../cost/meter-summarizer.js';
import type { CompactionEconomics } from '../cost/weigh-compaction.js';
import type { CompressionMetadata, NoOpReason, StrategyWarning } from '../strategy/compression-result.js';
import type { DensityResultMetadata } from '../strategy/density-result.js';
import type { CompressionDecision } from '../thresholds/decide-compression.js';
import type { ResolvedThreshold } from '../thresholds/resolve-threshold.js';
import type { CalibrationState } from '../tokens/token-calibration.js';

/** What one pass (density optimization, compression by one strategy, or the emergency cut) did. */
export interface PassReport {
  /**
   * - `density`: the active strategy's `optimize()`.
   * - `compression`: one strategy's `compress()` (the active one or a fallback).
   * - `emergency`: the orchestrator's last resort when the request still did not fit the window: the largest tool
   *   results were cut to their beginning and end (see `cutOversizedToolResults`).
   */
  readonly pass: 'density' | 'compression' | 'emergency';
  /** The strategy that ran; `cut-oversized-tool-results` for the emergency pass. */
  readonly strategy: string;
  /** `failed` only appears when fallback strategies are configured; without them the error is thrown. */
  readonly outcome: 'applied' | 'no-op' | 'failed';
  /** Why nothing changed, for `no-op`. */
  readonly reason?: NoOpReason;
  /** A sentence for the user about a no-op or failure. */
  readonly message?: string;
  /**
   * Tokens of the whole request (history + system + tools) before and after the pass, as our tokenizer counts
   * them (uncalibrated: the turn's `request` has the calibrated figure).
   */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly entriesBefore: number;
  readonly entriesAfter: number;
  /** Wall-clock time of the strategy call and its application. */
  readonly durationMs: number;
  readonly warnings: readonly StrategyWarning[];
  /** Per-operation counts of a density pass. */
  readonly densityMetadata?: DensityResultMetadata;
  /** What a compression (or emergency) pass reported. */
  readonly compressionMetadata?: CompressionMetadata;
  /** The error of a `failed` pass. */
  readonly error?: unknown;
  /**
   * The pass weighed against the prompt cache it would rewrite (cache-aware planning, when the orchestrator has a
   * cost model): a `does-not-pay` no-op was declined for these figures; an applied pass paid.
   */
  readonly economics?: CompactionEconomics;
  /** The summarizer calls the pass made (LLM strategies), each with its usage. */
  readonly summarizerCalls?: readonly SummarizerCall[];
  /** What those calls cost in US dollars, at the condensing model's prices (when a cost model is known). */
  readonly summarizerUsd?: number;
}

/**
 * The request as it stands after the turn's passes: its size in our tokens and calibrated to the provider's count,
 * what fits, and whether it does. `fits: false` never leaves `ensureCompressionBeforeSend()` or
 * `enforceContextWindow()` without a {@link ContextWindowExceededError}.
 */
export interface RequestReport {
  /** History + system + tools + the pending message, as our tokenizer counts them. */
  readonly estimatedTokens: number;
  /**
   * The same request calibrated to the provider's count: what every decision uses. `estimatedTokens × factor`, and
   * never less than the provider's last real count plus what was added since (when only content was added).
   */
  readonly calibratedTokens: number;
  /** Tokens of the system instructions and tool definitions, calibrated. */
  readonly overheadTokens: number;
  /** The window minus the tokens reserved for the model's answer. */
  readonly availableTokens: number;
  /** `calibratedTokens ≤ availableTokens`. */
  readonly fits: boolean;
  /** The calibration in effect for this turn's decisions. */
  readonly calibration: CalibrationState;
}

/** Everything one orchestrator call did (spec 004 NFR-U-002 "visual feedback"). */
export interface TurnReport {
  /** The passes that ran, in order. Empty when nothing was due. */
  readonly passes: readonly PassReport[];
  /** The compression decision made after density optimization; undefined for a forced compression. */
  readonly decision: CompressionDecision | undefined;
  /** The threshold in effect and where it came from. */
  readonly threshold: ResolvedThreshold;
  /** Tokens of the request (history + system + tools) before and after the turn, uncalibrated. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** The request after the turn, calibrated, and whether it fits. */
  readonly request: RequestReport;
  /**
   * True when the request did not fit the window after the threshold pass, so the emergency path ran (every
   * strategy again, then the cut of the largest tool results): compression here was required, not chosen.
   */
  readonly emergency: boolean;
  /**
   * What the user should know about the turn as a whole, e.g. that the system instructions and tool definitions
   * alone reach the threshold (reported once, not every turn), or that the no-progress guard skipped compression.
   */
  readonly warnings: readonly StrategyWarning[];
}
