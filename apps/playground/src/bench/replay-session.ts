import { getHeapStatistics } from 'node:v8';
import {
  HistoryService,
  createCompressionOrchestrator,
  createCountingTokenizer,
  createTokenCounter,
  type CompressionStrategy,
  type HistoryEntry,
  type Tokenizer,
} from '@ctx/core';
import { inferWorkspaceRoot } from '@ctx/strategy-utils';
import type { BenchSession } from './bench-sessions.js';

/** What replaying one session with one strategy cost. */
export interface ReplayMeasurement {
  /** Wall time of the whole replay: every entry added, every turn's `ensureCompressionBeforeSend()`. */
  readonly milliseconds: number;
  /** Each turn's time (the entries added since the previous turn, then the check before the model call). */
  readonly turnMilliseconds: readonly number[];
  /** The same, minus the time spent inside the tokenizer. */
  readonly turnOverheadMilliseconds: readonly number[];
  /** Characters handed to the tokenizer during the replay. */
  readonly charactersTokenized: number;
  /** Passes the orchestrator applied (density, compression, emergency). */
  readonly appliedPasses: number;
  /** The largest V8 heap in use seen after a turn, in bytes. */
  readonly peakHeapBytes: number;
  /** Set when the orchestrator threw: the replay stopped there. */
  readonly error?: string;
}

/** Options of {@link replaySession}. */
export interface ReplaySessionOptions {
  readonly session: BenchSession;
  /** Creates the strategy under test (a new one per replay, so no replay profits from another's caches). */
  readonly createStrategy: () => CompressionStrategy;
  /** The raw tokenizer; the replay wraps it to count characters and time. */
  readonly tokenizer: Tokenizer;
  /** The model's context window, in tokens. */
  readonly contextLimit: number;
}

/** A model call happens before each of the model's own entries, and once after the last entry. */
function isTurnEnd(history: readonly HistoryEntry[], index: number): boolean {
  const next = history[index + 1];
  return next === undefined || next.speaker === 'ai';
}

/**
 * Replays a session as an agent loop would have lived it: each entry added to a `HistoryService` (a fresh, unfrozen
 * copy, made right before it is added and outside the measured time, as an agent builds each entry when it arrives),
 * and before every model call the orchestrator's `ensureCompressionBeforeSend()`, with the strategy as the active one
 * and a fresh token counter (nothing counted before). Calibration is off: a replay has no provider usage to learn
 * from.
 *
 * Copying the whole session before the first turn instead left megabytes of entries not yet added in the young
 * generation, which the collections during the replay copied and promoted, as much or as little as their timing
 * made it: S2's baseline replay read 1,303–1,395 million instructions over three runs, and 1,296–1,297 since.
 *
 * @returns Times per turn with and without the tokenizer, characters tokenized and peak memory; an error stops the
 *   replay and is returned, not thrown.
 */
export async function replaySession(options: ReplaySessionOptions): Promise<ReplayMeasurement> {
  const { session, contextLimit } = options;
  const entries = session.history;
  const counting = createCountingTokenizer(options.tokenizer);
  const history = new HistoryService({ tokenCounter: createTokenCounter(counting.tokenizer), system: session.system, tools: session.tools });
  const strategy = options.createStrategy();
  const orchestrator = createCompressionOrchestrator({
    history,
    strategies: [strategy],
    contextLimit,
    calibration: false,
    workspaceRoot: inferWorkspaceRoot(session.history),
  });

  const turnMilliseconds: number[] = [];
  const turnOverheadMilliseconds: number[] = [];
  let appliedPasses = 0;
  let peakHeapBytes = getHeapStatistics().used_heap_size;
  let error: string | undefined;
  let elapsed = 0;
  let turnStarted = performance.now();
  let tokenizerAtTurnStart = counting.stats().milliseconds;
  try {
    for (const [index, recorded] of entries.entries()) {
      const copyStarted = performance.now();
      const entry = structuredClone<HistoryEntry>(recorded);
      turnStarted += performance.now() - copyStarted;
      history.add(entry);
      if (!isTurnEnd(entries, index)) continue;
      await history.waitForTokenUpdates();
      const report = await orchestrator.ensureCompressionBeforeSend();
      const turn = performance.now() - turnStarted;
      const tokenizing = counting.stats().milliseconds - tokenizerAtTurnStart;
      elapsed += turn;
      turnMilliseconds.push(turn);
      turnOverheadMilliseconds.push(Math.max(0, turn - tokenizing));
      appliedPasses += report.passes.filter((pass) => pass.outcome === 'applied').length;
      // Sampled between turns, outside the measured time.
      peakHeapBytes = Math.max(peakHeapBytes, getHeapStatistics().used_heap_size);
      turnStarted = performance.now();
      tokenizerAtTurnStart = counting.stats().milliseconds;
    }
  } catch (thrown) {
    error = thrown instanceof Error ? `${thrown.name}: ${thrown.message.split('\n')[0] ?? ''}` : String(thrown);
  } finally {
    orchestrator.dispose();
  }
  return {
    milliseconds: elapsed,
    turnMilliseconds,
    turnOverheadMilliseconds,
    charactersTokenized: counting.stats().characters,
    appliedPasses,
    peakHeapBytes,
    ...(error === undefined ? {} : { error }),
  };
}
