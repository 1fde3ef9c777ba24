import type { SummarizerCall } from '../cost/meter-summarizer.js';
import type { CompactionEconomics } from '../cost/weigh-compaction.js';
import { CompressionFailedError } from '../errors/compression-failed-error.js';
import { TokenCountError } from '../errors/token-count-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { HistoryService } from '../history/history-service.js';
import type { CompressionBudget } from '../strategy/compression-budget.js';
import type { CompressionContext } from '../strategy/compression-context.js';
import type { CompressionResult } from '../strategy/compression-result.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import type { Summarizer } from '../strategy/summarizer.js';
import type { Todo } from '../strategy/todo.js';
import { validateCompressedHistory } from '../strategy/validate-compressed-history.js';
import type { PassReport } from './turn-report.js';

/** Inputs of {@link runCompressionChain}. */
export interface CompressionChainInput {
  readonly history: HistoryService;
  /** The active strategy first, then the fallbacks, in order. */
  readonly strategies: readonly CompressionStrategy[];
  /** The budget of each `compress()` call; recomputed before each strategy (the request changed). */
  readonly budget: () => CompressionBudget;
  /** After a strategy applied: whether the request still needs compressing, so the next one runs on its result. */
  readonly stillTooLarge: () => boolean;
  readonly signal?: AbortSignal | undefined;
  readonly summarizer?: Summarizer | undefined;
  readonly activeTodos?: readonly Todo[] | undefined;
  readonly transcriptPath?: string | undefined;
  /** The condensing prompt of the condensing profile, handed to strategies (spec 004 FR-PR-003). */
  readonly condensingPrompt?: string | undefined;
  /**
   * Cache-aware planning: weighs a strategy before it runs (`before`, for LLM strategies: their summarizer calls are
   * the cost) or its result before it is applied (`after`, for the others). A weighing that does not pay declines
   * the strategy (a `does-not-pay` no-op) and the next one is tried.
   */
  readonly weigh?: {
    before(strategy: CompressionStrategy, context: CompressionContext): Promise<CompactionEconomics | undefined>;
    after(
      strategy: CompressionStrategy,
      before: readonly HistoryEntry[],
      after: readonly HistoryEntry[],
      tokens: { readonly before: number; readonly after: number },
    ): CompactionEconomics | undefined;
  };
  /** The summarizer calls made since the last take, and their price; attached to each pass. */
  readonly takeSummarizerCalls?: () => { readonly calls: readonly SummarizerCall[]; readonly usd: number | undefined };
}

/** What {@link runCompressionChain} did. */
export interface CompressionChainOutcome {
  readonly passes: readonly PassReport[];
  /** True when some strategy's result replaced the history. */
  readonly applied: boolean;
  /** True when the chain ended because the signal was aborted (a strategy's `aborted` no-op). */
  readonly aborted: boolean;
}

/**
 * Counts a strategy's result with the history's counter. A tokenizer failure becomes a {@link TokenCountError} that
 * names the result's entry it could not count; the history is left as it was (the result is never applied).
 */
function countResult(history: HistoryService, entries: readonly HistoryEntry[]): number {
  try {
    return history.tokenCounter.countEntries(entries) + history.getOverheadTokens();
  } catch (error) {
    if (TokenCountError.isInstance(error)) throw error;
    const failing = entries.findIndex((entry) => {
      try {
        history.tokenCounter.countEntries([entry]);
        return false;
      } catch {
        return true;
      }
    });
    throw new TokenCountError({ ...(failing === -1 ? {} : { entryIndex: failing }), cause: error });
  }
}

function now(): number {
  return globalThis.performance.now();
}

function isAbortError(error: unknown, signal: AbortSignal | undefined): boolean {
  return (
    (signal?.aborted === true && error === signal.reason) ||
    (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
  );
}

/**
 * The fallback chain (spec 004 NFR-R-002, "mechanical first, LLM or truncation after", FR-CS-003): runs the active
 * strategy's `compress()`, validates its result and commits it atomically; when it throws, returns a no-op or makes
 * no progress, the next strategy runs on the same history; when it applied but left the request too large, the
 * next one runs on its result. Without fallbacks a strategy's error reaches the caller unchanged (spec 000
 * ERR-003); with them, only when every strategy threw ({@link CompressionFailedError}). An abort ends the chain.
 * Marks the history as compressing for the whole chain, so entries added meanwhile are queued, not lost.
 */
export async function runCompressionChain(input: CompressionChainInput): Promise<CompressionChainOutcome> {
  const { history, strategies, signal } = input;
  const hasFallbacks = strategies.length > 1;
  const passes: PassReport[] = [];
  // Every pass carries the summarizer calls made while its strategy ran (LLM strategies), whatever its outcome.
  const record = (pass: PassReport) => {
    const metered = input.takeSummarizerCalls?.();
    passes.push(
      metered === undefined || metered.calls.length === 0
        ? pass
        : { ...pass, summarizerCalls: metered.calls, ...(metered.usd === undefined ? {} : { summarizerUsd: metered.usd }) },
    );
  };
  const failures: { strategyName: string; error: unknown }[] = [];
  let applied = false;

  history.startCompression();
  try {
    for (const [position, strategy] of strategies.entries()) {
      const tokensBefore = history.getTotalTokens();
      const entriesBefore = history.length;
      const base = { pass: 'compression', strategy: strategy.name, tokensBefore, entriesBefore } as const;
      const context: CompressionContext = {
        history: Object.freeze(history.getCurated()),
        system: history.getSystem(),
        tools: history.getTools(),
        tokenCounter: history.tokenCounter,
        budget: input.budget(),
        activeTodos: input.activeTodos,
        transcriptPath: input.transcriptPath,
        summarizer: input.summarizer,
        ...(input.condensingPrompt === undefined ? {} : { condensingPrompt: input.condensingPrompt }),
        signal,
      };
      const started = now();
      const declined = (economics: CompactionEconomics, tokensAfter: number) => {
        record({
          ...base,
          outcome: 'no-op',
          reason: 'does-not-pay',
          message: `declined while the request still fits: ${strategy.name} ${economics.message} (${tokensBefore} → ${tokensAfter} tokens)`,
          tokensAfter: tokensBefore,
          entriesAfter: entriesBefore,
          durationMs: now() - started,
          warnings: [],
          economics,
        });
      };
      let result: CompressionResult;
      let newHistory: readonly HistoryEntry[] = [];
      let economics: CompactionEconomics | undefined;
      try {
        signal?.throwIfAborted();
        if (strategy.requiresLLM && input.weigh !== undefined) {
          economics = await input.weigh.before(strategy, context);
          if (economics !== undefined && !economics.pays) {
            declined(economics, tokensBefore - economics.savedTokens);
            continue;
          }
        }
        result = await strategy.compress(context);
        if (result.type === 'applied') newHistory = validateCompressedHistory(strategy, context.history, result.newHistory);
      } catch (error) {
        if (!hasFallbacks || isAbortError(error, signal)) throw error;
        failures.push({ strategyName: strategy.name, error });
        record({
          ...base,
          outcome: 'failed',
          message: error instanceof Error ? error.message : String(error),
          tokensAfter: tokensBefore,
          entriesAfter: entriesBefore,
          durationMs: now() - started,
          warnings: [{ type: 'fallback', message: `${strategy.name} failed; trying the next strategy` }],
          error,
        });
        continue;
      }

      if (result.type === 'no-op') {
        record({
          ...base,
          outcome: 'no-op',
          reason: result.reason,
          ...(result.message === undefined ? {} : { message: result.message }),
          tokensAfter: tokensBefore,
          entriesAfter: entriesBefore,
          durationMs: now() - started,
          warnings: result.warnings ?? [],
        });
        if (result.reason === 'aborted') return { passes, applied, aborted: true };
        continue;
      }

      const tokensAfter = countResult(history, newHistory);
      if (!strategy.requiresLLM && input.weigh !== undefined && tokensAfter < tokensBefore) {
        economics = input.weigh.after(strategy, context.history, newHistory, { before: tokensBefore, after: tokensAfter });
        if (economics !== undefined && !economics.pays) {
          declined(economics, tokensAfter);
          continue;
        }
      }
      if (tokensAfter >= tokensBefore) {
        record({
          ...base,
          outcome: 'no-op',
          reason: 'no-progress',
          message: `the result had ${tokensAfter} tokens, not fewer than ${tokensBefore}; the history was left unchanged`,
          tokensAfter: tokensBefore,
          entriesAfter: entriesBefore,
          durationMs: now() - started,
          warnings: result.warnings ?? [],
        });
        continue;
      }

      await history.replaceHistory(newHistory);
      applied = true;
      const next = strategies[position + 1];
      const handOver = next !== undefined && input.stillTooLarge();
      const tokensLeft = history.getTotalTokens();
      record({
        ...base,
        ...(economics === undefined ? {} : { economics }),
        outcome: 'applied',
        tokensAfter: tokensLeft,
        entriesAfter: history.length,
        durationMs: now() - started,
        warnings: [
          ...(result.warnings ?? []),
          ...(handOver
            ? [{ type: 'fallback' as const, message: `${tokensLeft} tokens are still over the line after ${strategy.name}; running ${next.name} on its result` }]
            : []),
        ],
        compressionMetadata: result.metadata,
      });
      if (!handOver) return { passes, applied, aborted: false };
    }
    if (!applied && failures.length === strategies.length) throw new CompressionFailedError({ failures });
    return { passes, applied, aborted: false };
  } finally {
    history.endCompression();
  }
}
