import type { CompressionContext } from './compression-context.js';
import type { CompressionResult } from './compression-result.js';
import type { CostEstimate, CostModel } from './cost-model.js';
import type { DensityConfig, DensityResult } from './density-result.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import type { StrategyTrigger } from './strategy-trigger.js';
import type { HistoryEntry } from '../history/history-entry.js';

/** What a strategy can do, for listings and for picking one (spec 004 FR-PA-001). */
export interface StrategyCapabilities {
  /** Removed content stays retrievable by reference (id + hash); nothing a model could need is lost. */
  readonly lossless?: boolean;
  /** Runs several passes, each of which can stop early once the target is met. */
  readonly multiPass?: boolean;
  /** Calls a model (through the context's summarizer) to summarize. */
  readonly llmSummarization?: boolean;
  /**
   * May edit user-typed text (e.g. strip duplicated `@`-included files). Without it, user text that survives
   * compression must be byte-identical.
   */
  readonly rewritesUserText?: boolean;
  readonly estimatedSpeed?: 'fast' | 'medium' | 'slow';
}

/** A strategy's forecast of `compress()` without running it. */
export interface ReductionEstimate {
  readonly tokensBefore: number;
  readonly estimatedTokensAfter: number;
}

/**
 * The contract every compression strategy implements (spec 000 `CompressionStrategy`, version 1).
 *
 * Rules (checked by `@ctx/conformance`): never mutate the input; same input and settings give the same output;
 * never increase tokens; keep tool calls paired with their responses; keep thinking blocks verbatim or drop them
 * whole; keep user text verbatim unless `capabilities.rewritesUserText`; mark entries you create with
 * `markGeneratedEntry`; return a no-op with a reason when nothing can be done. Throw only when the contract itself
 * is broken.
 *
 * Strategies are created by a factory that validates its settings once (`createXStrategy(settings)`).
 *
 * @typeParam Settings - The strategy's resolved settings.
 */
export interface CompressionStrategy<Settings = unknown> {
  readonly specificationVersion: 'v1';
  /** Unique, kebab-case name users select it by, e.g. `top-down-truncation`. */
  readonly name: string;
  /** One sentence on what it does, for listings. */
  readonly description?: string;
  readonly requiresLLM: boolean;
  readonly trigger: StrategyTrigger;
  readonly capabilities?: StrategyCapabilities;
  /** Validates the strategy's settings; lets tools check user input before creating the strategy. */
  readonly settingsSchema?: StandardSchemaV1<unknown, Settings>;
  /** The settings in effect, defaults filled in. */
  readonly settings?: Readonly<Settings>;

  /**
   * Continuous, deterministic pruning (spec 000 `optimize`). Synchronous and pure: returns index-based edits of
   * `history` that the history service validates and applies. Only continuous strategies implement it.
   */
  optimize?(history: readonly HistoryEntry[], config: DensityConfig): DensityResult;

  /** Produces a smaller history, or a no-op with a reason. */
  compress(context: CompressionContext): Promise<CompressionResult>;

  /** Forecasts the effect of `compress()` cheaply (spec 004 FR-PA-001). */
  estimateReduction?(context: CompressionContext): Promise<ReductionEstimate>;

  /** Forecasts what `compress()` would cost with the given model's prices (spec 004 FR-CO-004). */
  estimateCost?(context: CompressionContext, costModel: CostModel): Promise<CostEstimate>;

  /**
   * For a strategy that replaces content by references (`capabilities.lossless`, spec 004 FR-LC-003): a history
   * this strategy produced, with every reference resolved, exactly as it was before. Tools use it to measure what
   * stays recoverable (`ctx compare` measures file states and errors on it); the conformance kit checks that it
   * restores the input of `optimize()` and `compress()`.
   *
   * @throws When a reference cannot be resolved (its source was removed or changed by a later pass).
   */
  expand?(history: readonly HistoryEntry[]): HistoryEntry[];
}

/**
 * Creates a strategy from settings. Strategy packages export one (`createTopDownTruncationStrategy`), and the
 * playground loads third-party strategies through it. Factories validate their settings at run time (see
 * `parseStrategySettings`), so tools may pass settings read from untrusted input.
 *
 * @typeParam SettingsInput - The settings the factory accepts, e.g. `TopDownTruncationSettingsInput`.
 */
export type CompressionStrategyFactory<SettingsInput = never, Settings = unknown> = (
  settings?: SettingsInput,
) => CompressionStrategy<Settings>;
