import { createTokenCounter } from '@ctx/core';
import { anthropicPrices, findAnthropicModelPrice } from '@ctx/cost-anthropic';
import type { CliIo } from '../cli-io.js';
import type { CostReport } from '../cost/cost-report.js';
import { formatCostReport } from '../cost/format-cost-report.js';
import { sumCostByModel } from '../cost/model-cost-sums.js';
import { estimateCondensingCosts } from '../cost/estimate-condensing-costs.js';
import { readCostSessions } from '../cost/read-cost-sessions.js';
import { simulateCompressedCost } from '../cost/simulate-compressed-cost.js';
import { resolveStrategies, type StrategyCommandOptions } from '../resolve-strategies.js';
import { escapeForTerminal } from '../terminal-text.js';
import { createTokenizer } from '../tokenizers.js';
import { UsageError } from '../usage-error.js';

/** The context window of the Claude models, unless `--window` says otherwise. */
export const defaultCostWindow = 200_000;

/** Options of `ctx cost`, as parsed from the command line. */
export interface CostCommandOptions extends StrategyCommandOptions {
  /** The model's context window in its tokens (default {@link defaultCostWindow}). */
  readonly window?: number;
  readonly json: boolean;
  /** Replay each strategy a second time with cache-aware planning (default true; `--no-cache-aware`). */
  readonly cacheAware?: boolean;
  /** Comma-separated Anthropic model ids to price LLM strategies' condensation with (default {@link defaultCondensingModels}). */
  readonly condensingModels?: string;
}

/**
 * The model ids of `--condensing-models`, each one `@ctx/cost-anthropic` prices (an alias or dated id is fine).
 *
 * @throws `UsageError` naming an id the price table does not have and the ids it has (exit 2), before any session is
 *   read.
 */
function parseCondensingModels(text: string): string[] {
  const models = text
    .split(',')
    .map((model) => model.trim())
    .filter((model) => model !== '');
  const unknown = models.filter((model) => findAnthropicModelPrice(model) === undefined);
  if (unknown.length > 0) {
    throw new UsageError(
      `--condensing-models: no price for ${unknown.map((model) => escapeForTerminal(model)).join(', ')}; known: ${anthropicPrices.map((price) => price.model).join(', ')}`,
    );
  }
  return models;
}

/** The condensing models LLM strategies are priced with besides the session's own: Anthropic's cheapest current one. */
export const defaultCondensingModels = 'claude-haiku-4-5';

/**
 * `ctx cost <session…>`: what recorded Claude Code sessions cost, per model and in total, with each API call counted
 * once as ccusage counts it; and what they would have cost with each deterministic strategy or preset, replayed turn
 * by turn (LLM strategies are listed as needing a model), and again with the orchestrator's cache-aware planning, which
 * declines compactions that cost more in prompt-cache writes than they save.
 *
 * @returns 0, or 1 when a strategy failed on a session (the report is still printed).
 * @throws `UsageError` for unknown strategies or presets, or a condensing model without a price (exit 2);
 *   `CliError` for a path that is not a readable Claude Code session (exit 1).
 */
export async function runCostCommand(paths: readonly string[], options: CostCommandOptions, io: CliIo): Promise<number> {
  const condensingModels = parseCondensingModels(options.condensingModels ?? defaultCondensingModels);
  const strategies = await resolveStrategies(options);
  const tokenizer = await createTokenizer('gpt-tokenizer');
  const tokenCounter = createTokenCounter(tokenizer);
  const read = await readCostSessions(paths, tokenCounter);
  const recorded = sumCostByModel(read.billedCalls);
  const window = options.window ?? defaultCostWindow;
  const simulated = await simulateCompressedCost({
    sessions: read.sessions,
    billedCalls: read.billedCalls,
    recorded,
    strategies,
    tokenCounter,
    window,
    cacheAware: options.cacheAware ?? true,
  });
  const condensing = await estimateCondensingCosts({
    sessions: read.sessions,
    strategies,
    models: condensingModels,
    tokenCounter,
    window,
  });
  const report: CostReport = {
    files: read.files,
    usageRecords: read.usageRecords,
    recorded,
    simulation: { window, replayedCalls: simulated.replayedCalls, tokenizer: tokenizer.name },
    strategies: simulated.strategies,
    condensing,
  };
  io.stdout(options.json ? JSON.stringify(report, null, 2) : formatCostReport(report));
  return simulated.strategies.some((row) => row.outcome === 'failed') ? 1 : 0;
}
