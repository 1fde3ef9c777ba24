import type { CompressionMetadata, NoOpReason, StrategyWarning } from '../strategy/compression-result.js';
import type { DensityResultMetadata } from '../strategy/density-result.js';
import type { CompressionDecision } from '../thresholds/decide-compression.js';
import type { ResolvedThreshold } from '../thresholds/resolve-threshold.js';

/** What one pass (density optimization or compression by one strategy) did. */
export interface PassReport {
  readonly pass: 'density' | 'compression';
  readonly strategy: string;
  /** `failed` only appears when fallback strategies are configured; without them the error is thrown. */
  readonly outcome: 'applied' | 'no-op' | 'failed';
  /** Why nothing changed, for `no-op`. */
  readonly reason?: NoOpReason;
  /** A sentence for the user about a no-op or failure. */
  readonly message?: string;
  /** Tokens of the whole request (history + system + tools) before and after the pass. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly entriesBefore: number;
  readonly entriesAfter: number;
  /** Wall-clock time of the strategy call and its application. */
  readonly durationMs: number;
  readonly warnings: readonly StrategyWarning[];
  /** Per-operation counts of a density pass. */
  readonly densityMetadata?: DensityResultMetadata;
  /** What a compression pass reported. */
  readonly compressionMetadata?: CompressionMetadata;
  /** The error of a `failed` pass. */
  readonly error?: unknown;
}

/** Everything one orchestrator call did (spec 004 NFR-U-002 "visual feedback"). */
export interface TurnReport {
  /** The passes that ran, in order. Empty when nothing was due. */
  readonly passes: readonly PassReport[];
  /** The compression decision made after density optimization; undefined for a forced compression. */
  readonly decision: CompressionDecision | undefined;
  /** The threshold in effect and where it came from. */
  readonly threshold: ResolvedThreshold;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}
