import {
  DEFAULT_COMPRESSION_THRESHOLD,
  parseStrategySettings,
  type CompressionResult,
  type CompressionStrategy,
  type ReductionEstimate,
} from '@ctx/core';
import { createDensityOptimizer } from './density-optimizer.js';
import { strategyName } from './generated-marker.js';
import {
  highDensitySettingsSchema,
  type HighDensitySettings,
  type HighDensitySettingsInput,
} from './high-density-settings.js';
import { planToolResultSummaries, summarizeOldToolResults } from './summarize-old-tool-results.js';

/**
 * Creates the high-density strategy of spec 000: continuous, deterministic and LLM-free.
 *
 * - `optimize(history, config)` runs before every send that follows new content (trigger `continuous`): it drops
 *   file reads a later write made stale (call and result together), keeps only the newest `@`-inclusion of each
 *   file, and — when `recencyPruning` is on — keeps only the newest `recencyRetention` results of each tool. The
 *   toggles come from `config` (the orchestrator's `DensityConfig`: the session's `compression.density.*`
 *   setting, else this strategy's own setting of the same name, else spec 000's default). With `foldEdits`, a read
 *   made stale by edits is rewritten into the file's content after them instead of being dropped.
 * - `compress(context)` runs when the context is still over the threshold (default 0.85): it replaces the payload
 *   of old tool results with one-line summaries until the history fits `threshold × contextLimit × 0.6`, keeping
 *   every tool call, human message and assistant text, and the last `preserveRecentTurns` assistant turns whole.
 *
 * Tool meaning (which call reads or writes which file) comes from `@ctx/strategy-utils`, so it works on Claude
 * Code, gemini-cli / llxprt, SWE-agent, OpenHands, mini-swe-agent and Codex histories, including shell reads and
 * writes.
 *
 * @param settings - Validated once, here.
 * @returns The strategy.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings, e.g. `recencyRetention: 0`.
 *
 * @example
 * ```ts
 * const strategy = createHighDensityStrategy({ recencyPruning: true, recencyRetention: 5 });
 * const orchestrator = createCompressionOrchestrator({ history, strategies: [strategy], contextLimit: 200_000 });
 * await orchestrator.ensureCompressionBeforeSend();
 * ```
 */
export function createHighDensityStrategy(settings?: HighDensitySettingsInput): CompressionStrategy<HighDensitySettings> {
  const resolved = parseStrategySettings(highDensitySettingsSchema, settings, strategyName);
  const summaryOptions = { preserveRecentTurns: resolved.preserveRecentTurns, registry: resolved.registry };

  return {
    specificationVersion: 'v1',
    name: strategyName,
    description:
      'Drops stale file reads, duplicate @-inclusions and (optionally) old tool results every turn; summarizes old tool results when over the threshold. No LLM.',
    requiresLLM: false,
    trigger: { mode: 'continuous', defaultThreshold: DEFAULT_COMPRESSION_THRESHOLD },
    capabilities: { lossless: false, rewritesUserText: resolved.fileDedupe, estimatedSpeed: 'fast' },
    settingsSchema: highDensitySettingsSchema,
    settings: resolved,

    optimize: createDensityOptimizer({ foldEdits: resolved.foldEdits, recencyScope: resolved.recencyScope, registry: resolved.registry }),

    // Executors turn a throw into a rejection, as callers of a promise-returning method expect (ERR-003).
    compress(context): Promise<CompressionResult> {
      return new Promise((resolve) => resolve(summarizeOldToolResults(context, summaryOptions)));
    },

    estimateReduction(context): Promise<ReductionEstimate> {
      return new Promise((resolve) => {
        const plan = planToolResultSummaries(context, summaryOptions);
        resolve({ tokensBefore: plan.tokensBefore, estimatedTokensAfter: plan.tokensAfter });
      });
    },
  };
}
