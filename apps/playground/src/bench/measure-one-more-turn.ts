import { createCharacterTokenizer, createSyntheticHistory } from '@ctx/conformance';
import {
  HistoryService,
  densityDefaults,
  parseHistory,
  type CompressionStrategy,
  type DensityConfig,
  type HistoryEntry,
} from '@ctx/core';
import { inferWorkspaceRoot } from '@ctx/strategy-utils';
import { medianTime, type MedianTimeOptions } from './median-time.js';

/** The history sizes at which one more turn is measured. */
export const oneMoreTurnSizes = [150, 300, 600] as const;

/** Where the histories of {@link measureOneMoreTurn} come from. */
export interface OneMoreTurnHistory {
  /** The largest session when it is long enough, else the conformance kit's synthetic history. */
  readonly label: string;
  readonly history: readonly HistoryEntry[];
}

/** The turn after `index`'s: the index of the next model entry after it, or the end. */
function nextTurnStart(history: readonly HistoryEntry[], from: number): number {
  let index = from;
  while (index < history.length && history[index]?.speaker !== 'ai') index++;
  return index;
}

/**
 * The history to measure one more turn on: `session` when it has a whole turn after its 600th entry, else a
 * synthetic history of 700 entries (the conformance kit's, seed 11, as the vitest benches use).
 */
export function oneMoreTurnHistory(session: { readonly label: string; readonly history: readonly HistoryEntry[] }): OneMoreTurnHistory {
  const largest = oneMoreTurnSizes[oneMoreTurnSizes.length - 1] ?? 600;
  const start = nextTurnStart(session.history, largest);
  if (nextTurnStart(session.history, start + 1) < session.history.length) return session;
  return { label: 'synthetic history (700 entries; the session is shorter)', history: parseHistory(createSyntheticHistory({ entries: 700, seed: 11 })) };
}

/**
 * Times `optimize()` after one more turn, at each of {@link oneMoreTurnSizes}: a strategy optimizes the first N
 * entries (cut at a turn boundary), its result is applied, then the next turn (the model's entry and its results) is
 * appended and the same strategy optimizes the grown history — the agent loop's steady state, on a `HistoryService`'s
 * snapshots as the orchestrator hands them out. A new strategy and history per run.
 *
 * @returns Milliseconds by size, or undefined when the strategy has no `optimize`.
 */
export async function measureOneMoreTurn(
  source: OneMoreTurnHistory,
  createStrategy: () => CompressionStrategy,
  runs: number,
  warmUp: MedianTimeOptions = {},
): Promise<Record<(typeof oneMoreTurnSizes)[number], number> | undefined> {
  if (createStrategy().optimize === undefined) return undefined;
  const config: DensityConfig = { ...densityDefaults, workspaceRoot: inferWorkspaceRoot(source.history) };
  const times = {} as Record<(typeof oneMoreTurnSizes)[number], number>;
  for (const size of oneMoreTurnSizes) {
    const cut = nextTurnStart(source.history, size);
    const turn = source.history.slice(cut, nextTurnStart(source.history, cut + 1));
    const prepare = async () => {
      const strategy = createStrategy();
      // The history service's snapshots, as the orchestrator hands them to strategies: frozen arrays (a strategy may
      // keep one by reference instead of copying it) whose changes from one to the next are on record.
      const history = new HistoryService({ tokenizer: createCharacterTokenizer(), history: source.history.slice(0, cut) });
      const base = history.getRawHistory();
      const result = strategy.optimize?.(base, config);
      if (result !== undefined) await history.applyDensityResult(result, { basis: base, strategyName: strategy.name });
      // The strategy sees its own result once, as the orchestrator's next density pass does.
      strategy.optimize?.(history.getRawHistory(), config);
      history.addAll(turn);
      return { strategy, grown: history.getRawHistory() };
    };
    times[size] = await medianTime(runs, prepare, ({ strategy, grown }) => strategy.optimize?.(grown, config), warmUp);
  }
  return times;
}
