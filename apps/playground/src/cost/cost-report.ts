import type { CondensingCost } from './estimate-condensing-costs.js';
import type { CostSums } from './model-cost-sums.js';
import type { StrategyCost } from './simulate-compressed-cost.js';

/** What `ctx cost --json` prints: what the sessions cost, and what they would have cost compressed. */
export interface CostReport {
  /** The session files read, in order. */
  readonly files: readonly string[];
  /** Usage records found, before each API call was counted once. */
  readonly usageRecords: number;
  /** What the recorded calls cost, per model and in total (each API call once). */
  readonly recorded: CostSums;
  /** How the compressed runs were simulated. */
  readonly simulation: {
    /** The context window the strategies kept the request in, in the model's tokens. */
    readonly window: number;
    /** Calls replayed through the strategies; the other calls are billed as recorded in every row. */
    readonly replayedCalls: number;
    /** The tokenizer that counted the requests. */
    readonly tokenizer: string;
  };
  /** One row per strategy or preset, in the order asked. */
  readonly strategies: readonly StrategyCost[];
  /**
   * What one compaction by each LLM strategy would cost with each condensing model (spec 004 FR-CO-003), estimated
   * without calling a model; empty when no LLM strategy was asked for.
   */
  readonly condensing: readonly CondensingCost[];
}
