import { createEmptyDensityResult, type DensityConfig, type DensityResult, type HistoryEntry } from '@ctx/core';
import { countSharedPrefix, findThinkingToolLoopStart, isSafeCutIndex, type ToolSemanticsRegistry } from '@ctx/strategy-utils';
import { DensityFold, trailingTurnStart } from './density-fold.js';
import { recordedWorkspaceRoot, resolveWorkspaceRoot } from './workspace-root.js';

/** Options of {@link createDensityOptimizer}: the strategy's own settings that `DensityConfig` does not carry. */
export interface DensityOptimizerOptions {
  readonly foldEdits: boolean;
  /** How recency pruning counts results: per tool name, or across all tools. */
  readonly recencyScope: 'per-tool' | 'all-tools';
  readonly registry: ToolSemanticsRegistry | undefined;
}

/** The fold of the last history, and what it covers. */
interface Memo {
  readonly settingsKey: string;
  readonly configuredRoot: string;
  /** The workspace root the fold classified with. */
  readonly workspaceRoot: string;
  /** Whether `workspaceRoot` was recorded in `entries` (so any history with that prefix infers the same root). */
  readonly rootFromPrefix: boolean;
  /**
   * The history whose first `covered` entries the fold has processed: the array itself when it is frozen (a
   * history service's snapshot, which then tells what changed before the next one without reading either), else
   * a copy of those entries, so a caller changing its array cannot fool the prefix check.
   */
  readonly entries: readonly HistoryEntry[];
  readonly covered: number;
  readonly fold: DensityFold;
}

/**
 * Creates the `optimize()` of the high-density strategy (spec 000 §2c): read→write pruning, duplicate `@`-inclusion
 * dedup and recency pruning, merged into one {@link DensityResult}. Pure in what it returns: the same history and
 * config always give the same result.
 *
 * It remembers the fold of the last history it saw. When the next history starts with the same entries (the same
 * frozen objects) — the agent loop's case after a turn is appended and nothing was pruned — only the new entries
 * are processed; otherwise the fold starts over, using the per-block caches. Either way the result is the same.
 *
 * @param options - `foldEdits`, `recencyScope` and the tool registry.
 * @returns `optimize(history, config)`.
 */
export function createDensityOptimizer(
  options: DensityOptimizerOptions,
): (history: readonly HistoryEntry[], config: DensityConfig) => DensityResult {
  let memo: Memo | undefined;

  const resume = (history: readonly HistoryEntry[], settingsKey: string, configuredRoot: string): Memo | undefined => {
    if (memo === undefined || memo.settingsKey !== settingsKey || memo.configuredRoot !== configuredRoot) return undefined;
    const { covered } = memo;
    if (history.length < covered || trailingTurnStart(history) < covered || !isSafeCutIndex(history, covered)) return undefined;
    if (countSharedPrefix(history, memo.entries, covered) < covered) return undefined;
    // A root recorded only in the new entries would change how the covered ones were classified.
    if (configuredRoot === '/' && !memo.rootFromPrefix && recordedWorkspaceRoot(history, covered) !== undefined) return undefined;
    return memo;
  };

  return (history, config) => {
    if (history.length === 0) return createEmptyDensityResult();
    const settingsKey = [config.readWritePruning, config.fileDedupe, config.recencyPruning].join();
    const configuredRoot = config.workspaceRoot;
    // The turn still in its tool loop, when it opened with thinking, is left as it is: removing a call and its result
    // there can merge two of its steps into one message that no longer starts with the thinking Anthropic requires.
    // It is processed once the loop closes.
    const limit = findThinkingToolLoopStart(history) ?? history.length;
    const closedUntil = Math.min(trailingTurnStart(history), limit);
    const resumed = resume(history, settingsKey, configuredRoot);
    const previous = resumed !== undefined && resumed.covered <= closedUntil ? resumed : undefined;
    memo = undefined;

    let fold: DensityFold;
    let start: number;
    let workspaceRoot: string;
    let rootFromPrefix: boolean;
    if (previous === undefined) {
      workspaceRoot = resolveWorkspaceRoot(configuredRoot, history);
      rootFromPrefix = configuredRoot !== '/' || recordedWorkspaceRoot(history, 0, closedUntil) !== undefined;
      fold = new DensityFold({
        scope: { workspaceRoot, registry: options.registry },
        readWritePruning: config.readWritePruning,
        fileDedupe: config.fileDedupe,
        recencyPruning: config.recencyPruning,
        foldEdits: options.foldEdits,
      });
      start = 0;
    } else {
      ({ fold, workspaceRoot, rootFromPrefix } = previous);
      start = previous.covered;
    }

    fold.process(history, start, closedUntil);
    memo = {
      settingsKey,
      configuredRoot,
      workspaceRoot,
      rootFromPrefix,
      entries: Object.isFrozen(history) ? history : history.slice(0, closedUntil),
      covered: closedUntil,
      fold,
    };
    fold.journal.open();
    try {
      fold.process(history, closedUntil, limit);
      return fold.collect(history, config.recencyRetention, options.recencyScope);
    } finally {
      fold.journal.rollBack();
    }
  };
}
