import type { HistoryEntry } from '../history/history-entry.js';

/**
 * Counts of what a density pass did, one number per operation. Spec 000's high-density strategy reports the three
 * named keys; other strategies add their own (e.g. `fileReadsDeduplicated`). Counts must match what was actually
 * done (spec 000 BR-CONFLICT-005).
 */
export interface DensityResultMetadata {
  /** Stale file reads removed because a later write touched the file (spec 000 BR-PRUNE-*). */
  readonly readWritePairsPruned?: number;
  /** Earlier `@`-inclusions of the same file stripped (spec 000 BR-DEDUP-*). */
  readonly fileDeduplicationsPruned?: number;
  /** Old tool results replaced by a pointer (spec 000 BR-RECENCY-*). */
  readonly recencyPruned?: number;
  readonly [operation: string]: number | undefined;
}

/**
 * The edits a continuous strategy's `optimize()` asks for, as indices into the raw history it was given.
 *
 * An index is either removed or replaced, never both (BR-CONFLICT-001). `HistoryService.applyDensityResult`
 * validates the result (spec 000 ERR-010..013), then applies replacements first and removals after, so every
 * index refers to the history as it was passed to `optimize()`.
 */
export interface DensityResult {
  /** Indices of entries to delete. No duplicates. */
  readonly removals: readonly number[];
  /** Index → the entry that takes its place (the replacement keeps the position). */
  readonly replacements: ReadonlyMap<number, HistoryEntry>;
  readonly metadata: DensityResultMetadata;
}

/**
 * The session-level density settings a continuous strategy receives on every `optimize()` call (spec 000
 * `DensityConfig`), built by the orchestrator from the `compression.density.*` settings. Strategies read the
 * toggles that apply to them and ignore the rest.
 */
export interface DensityConfig {
  /** Drop file reads made stale by a later write (spec 000 §3a). */
  readonly readWritePruning: boolean;
  /** Keep only the newest `@`-inclusion of each file (spec 000 §3b). */
  readonly fileDedupe: boolean;
  /** Keep only the newest `recencyRetention` results per tool (spec 000 §3c). */
  readonly recencyPruning: boolean;
  /** Results kept per tool when `recencyPruning` is on; values below 1 mean 1 (BR-RECENCY-005). */
  readonly recencyRetention: number;
  /** Directory relative file paths are resolved against (BR-PRUNE-006). */
  readonly workspaceRoot: string;
}

/** A density result that changes nothing. `optimize()` returns it when there is nothing to do (spec 000 EC-001). */
export function createEmptyDensityResult(): DensityResult {
  return { removals: [], replacements: new Map(), metadata: {} };
}

/** True when the result has no removals and no replacements, so applying it would be a no-op (spec 000 EC-042). */
export function isEmptyDensityResult(result: DensityResult): boolean {
  return result.removals.length === 0 && result.replacements.size === 0;
}
