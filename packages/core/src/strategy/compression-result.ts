import type { HistoryEntry } from '../history/history-entry.js';

/**
 * Why a strategy (or the orchestrator) did nothing. Partial support is data, not an exception.
 *
 * - `empty-history`: nothing to compress (spec 000 EC-001).
 * - `already-under-target`: the history already fits the target.
 * - `too-few-compressible`: nothing can be removed without breaking a rule (e.g. the newest turn alone is over
 *   the target, or every entry is protected).
 * - `nothing-to-optimize`: `optimize()` found nothing to prune (spec 000 EC-042).
 * - `no-progress`: the strategy's result would not have reduced tokens, so it was not applied.
 * - `no-progress-backoff`: skipped because the last attempt made no progress and the history has not grown enough
 *   since to try again.
 * - `missing-summarizer`: an LLM strategy was given no summarizer.
 * - `summarizer-failed`: an LLM strategy's summarizer failed (timeout, HTTP error, empty or inflated summary) and the
 *   strategy was asked not to fall back to a mechanical summary; the message says why.
 * - `aborted`: the signal was aborted before anything changed.
 * - `unsupported-history`: the history has a shape this strategy cannot handle.
 * - `does-not-pay`: the orchestrator's cache-aware planning declined the pass: the request still fits, and what it
 *   would save over the next calls is less than rewriting the provider's prompt cache (and its summarizer calls)
 *   costs; the pass report's `economics` has the figures.
 */
export type NoOpReason =
  | 'empty-history'
  | 'already-under-target'
  | 'too-few-compressible'
  | 'nothing-to-optimize'
  | 'no-progress'
  | 'no-progress-backoff'
  | 'missing-summarizer'
  | 'summarizer-failed'
  | 'aborted'
  | 'unsupported-history'
  | 'does-not-pay';

/** Something a user should know about a result that still succeeded. */
export interface StrategyWarning {
  /**
   * - `lossy`: information was dropped that cannot be recovered.
   * - `unsupported`: part of the input was left alone because the strategy does not understand it.
   * - `target-not-met`: the result is smaller but still over the target.
   * - `floor-hit`: a minimum (e.g. entries kept) stopped the strategy early.
   * - `fallback`: another strategy or a mechanical fallback was used.
   * - `threshold-unreachable`: the part of the request no strategy may change (system instructions, tool
   *   definitions, the pending message) alone reaches the threshold; compression then runs only when the request
   *   would not fit the window.
   */
  readonly type:
    | 'lossy'
    | 'unsupported'
    | 'target-not-met'
    | 'floor-hit'
    | 'fallback'
    | 'threshold-unreachable'
    | 'other';
  readonly message: string;
}

/** What a `compress()` call did (spec 000 vocabulary). */
export interface CompressionMetadata {
  readonly originalMessageCount: number;
  readonly compressedMessageCount: number;
  readonly strategyUsed: string;
  readonly llmCallMade: boolean;
  /** Per-operation counts, e.g. `{ entriesDropped: 12 }`. */
  readonly counts?: Readonly<Record<string, number>>;
}

/** `compress()` produced a new history. */
export interface AppliedCompressionResult {
  readonly type: 'applied';
  /** The complete new history; entries not changed should be passed through as the same objects. */
  readonly newHistory: readonly HistoryEntry[];
  readonly metadata: CompressionMetadata;
  readonly warnings?: readonly StrategyWarning[];
}

/** `compress()` left the history alone, and says why. */
export interface NoOpCompressionResult {
  readonly type: 'no-op';
  readonly reason: NoOpReason;
  /** A sentence for the user, e.g. "the newest turn alone is 9,000 tokens; the target is 6,000". */
  readonly message?: string;
  readonly warnings?: readonly StrategyWarning[];
}

/** The outcome of `compress()`: applied with a new history, or a no-op with a reason. */
export type CompressionResult = AppliedCompressionResult | NoOpCompressionResult;
