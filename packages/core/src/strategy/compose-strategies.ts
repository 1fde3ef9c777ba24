import { InvalidStrategyError } from '../errors/invalid-strategy-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { applyDensityResultToHistory } from './apply-density-result.js';
import { getHistoryTokenTarget } from './compression-budget.js';
import type { CompressionContext } from './compression-context.js';
import type { CompressionResult, NoOpReason, StrategyWarning } from './compression-result.js';
import type { CompressionStrategy, StrategyCapabilities } from './compression-strategy.js';
import type { DensityConfig, DensityResult } from './density-result.js';
import { validateCompressedHistory } from './validate-compressed-history.js';

/** Options of {@link composeStrategies}. */
export interface ComposeStrategiesOptions {
  /** The pipeline's name (kebab-case), e.g. a preset's: `coding-agent`. */
  readonly name: string;
  /** One sentence on what the pipeline does, for listings. */
  readonly description?: string;
  /** The steps, in the order they run. At least one. */
  readonly strategies: readonly CompressionStrategy[];
  /**
   * The fraction of the window at which the pipeline compresses when no setting overrides it.
   * @default the lowest default threshold of its steps
   */
  readonly threshold?: number;
}

/** One step of a composed pipeline, as reported in `settings`. */
export interface ComposedStep {
  /** The label its counts and warnings carry: the strategy's name, `name#2` for a second step of the same name. */
  readonly label: string;
  readonly strategy: string;
  readonly settings: unknown;
}

/** The `settings` of a composed strategy: its steps, in order. */
export interface ComposedStrategySettings {
  readonly steps: readonly ComposedStep[];
}

/**
 * A strategy made by {@link composeStrategies}: the contract, plus the step strategies themselves, so tools can look
 * inside (e.g. resolve the references of a lossless step when measuring what a pipeline kept).
 */
export interface ComposedStrategy extends CompressionStrategy<ComposedStrategySettings> {
  /** The steps, in the order they run. */
  readonly steps: readonly CompressionStrategy[];
}

const kebabCase = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function stepLabels(strategies: readonly CompressionStrategy[]): string[] {
  const seen = new Map<string, number>();
  return strategies.map((strategy) => {
    const count = (seen.get(strategy.name) ?? 0) + 1;
    seen.set(strategy.name, count);
    return count === 1 ? strategy.name : `${strategy.name}#${count}`;
  });
}

const speedRank = { fast: 0, medium: 1, slow: 2 } as const;

function combineCapabilities(strategies: readonly CompressionStrategy[]): StrategyCapabilities {
  const all = (key: 'lossless') => strategies.every((strategy) => strategy.capabilities?.[key] === true);
  const some = (key: 'llmSummarization' | 'rewritesUserText') =>
    strategies.some((strategy) => strategy.capabilities?.[key] === true);
  const speeds = strategies.map((strategy) => strategy.capabilities?.estimatedSpeed ?? 'medium');
  const slowest = speeds.reduce((worst, speed) => (speedRank[speed] > speedRank[worst] ? speed : worst), 'fast');
  return {
    lossless: all('lossless'),
    multiPass: true,
    llmSummarization: some('llmSummarization'),
    rewritesUserText: some('rewritesUserText'),
    estimatedSpeed: slowest,
  };
}

/**
 * Chains the steps' `optimize()` results into one result against the history the pipeline was given: each step
 * sees the history the steps before it produced; a replacement or removal of a step is mapped back to the entry
 * it started from. Each result is validated (as the history service would) before the next step sees it.
 */
function optimizeInSequence(
  history: readonly HistoryEntry[],
  config: DensityConfig,
  steps: readonly { readonly label: string; readonly strategy: CompressionStrategy }[],
): DensityResult {
  let current = history;
  // origin[i]: the index in `history` that entry i of `current` stands at.
  let origin = history.map((_, index) => index);
  const replacements = new Map<number, HistoryEntry>();
  const removals = new Set<number>();
  const metadata: Record<string, number> = {};
  for (const { label, strategy } of steps) {
    if (strategy.optimize === undefined) continue;
    const result = strategy.optimize(current, config);
    if (result.removals.length === 0 && result.replacements.size === 0) continue;
    const next = applyDensityResultToHistory(current, result, strategy.name);
    for (const [index, entry] of result.replacements) replacements.set(origin[index] as number, entry);
    const removed = new Set(result.removals);
    for (const index of removed) {
      const original = origin[index] as number;
      removals.add(original);
      replacements.delete(original);
    }
    origin = origin.filter((_, index) => !removed.has(index));
    current = next;
    for (const [key, count] of Object.entries(result.metadata)) {
      if (count !== undefined && count !== 0) metadata[`${label}.${key}`] = count;
    }
  }
  return { removals: [...removals].sort((a, b) => a - b), replacements, metadata };
}

function countRequest(context: CompressionContext, history: readonly HistoryEntry[]): number {
  return context.tokenCounter.countEntries(history) + context.budget.overheadTokens;
}

/**
 * Makes one strategy out of several that run in order — a pipeline such as "lossless, then high-density, then smart
 * passes", which is what a preset names. The orchestrator, `ctx compare` and conformance tools treat it like any other
 * strategy. No strategy imports another: the pipeline is composed where the strategies are created.
 *
 * - `optimize()` (when some step has one): every step's density pass in order, each on the previous one's output,
 *   combined into one `DensityResult` on the input. Counts are reported per step: `<step>.<count>`.
 * - `compress()`: the steps' `compress()` in order, each on the history the previous one returned (validated: a
 *   step's invalid result throws `CompressionStrategyError` naming the step); it stops as soon as the request is at
 *   or under the budget's target. A step's no-op is passed over (its reason is kept for the report); a result that
 *   does not save tokens is ignored. Counts (`<step>.<count>`) and warnings (`<step>: …`) are kept per step; the
 *   pipeline is a no-op only when every step was, with each step's reason in the message.
 * - `expand()` (only when every step is lossless): the steps' references resolved, last step first. The steps
 *   themselves are the result's `steps`.
 *
 * @example
 * ```ts
 * const codingAgent = composeStrategies({
 *   name: 'my-pipeline',
 *   strategies: [createLosslessStrategy(), createTruncationStrategy()],
 * });
 * createCompressionOrchestrator({ history, strategies: [codingAgent], contextLimit: 200_000 });
 * ```
 *
 * @throws `InvalidStrategyError` when the name is not kebab-case, no strategy is given, or the threshold is not in (0, 1].
 */
export function composeStrategies(options: ComposeStrategiesOptions): ComposedStrategy {
  const { name, strategies } = options;
  if (!kebabCase.test(name)) {
    throw new InvalidStrategyError({ message: `Expected a kebab-case pipeline name (e.g. "coding-agent"), got ${JSON.stringify(name)}` });
  }
  if (strategies.length === 0) {
    throw new InvalidStrategyError({ message: `Pipeline "${name}" needs at least one strategy, got none` });
  }
  const threshold = options.threshold ?? Math.min(...strategies.map((strategy) => strategy.trigger.defaultThreshold));
  if (!(threshold > 0 && threshold <= 1)) {
    throw new InvalidStrategyError({ message: `Pipeline "${name}": expected a threshold in (0, 1], got ${threshold}` });
  }
  const labels = stepLabels(strategies);
  const steps = strategies.map((strategy, index) => ({ label: labels[index] as string, strategy }));
  const continuous = strategies.some((strategy) => strategy.optimize !== undefined);
  // expand() is a claim that every reference is resolvable and the input comes back exactly (the conformance kit
  // checks it): only a pipeline of lossless steps can make it. Tools reach a lossy pipeline's lossless steps via `steps`.
  const lossless = strategies.every((strategy) => strategy.capabilities?.lossless === true && strategy.expand !== undefined);
  const expanding = lossless ? steps : [];

  const compress = async (context: CompressionContext): Promise<CompressionResult> => {
    let history = context.history;
    let applied = false;
    let llmCallMade = false;
    const counts: Record<string, number> = {};
    const warnings: StrategyWarning[] = [];
    const skipped: { label: string; reason: NoOpReason; message?: string }[] = [];
    const target = getHistoryTokenTarget(context.budget) + context.budget.overheadTokens;
    for (const { label, strategy } of steps) {
      if (context.signal?.aborted === true) {
        if (applied) break;
        return { type: 'no-op', reason: 'aborted', message: `aborted before ${label} ran` };
      }
      const tokensBefore = countRequest(context, history);
      if (applied && tokensBefore <= target) break;
      const result = await strategy.compress({ ...context, history });
      warnings.push(...(result.warnings ?? []).map((warning) => ({ ...warning, message: `${label}: ${warning.message}` })));
      if (result.type === 'no-op') {
        skipped.push({ label, reason: result.reason, ...(result.message === undefined ? {} : { message: result.message }) });
        if (result.reason === 'aborted' && !applied) return { type: 'no-op', reason: 'aborted', warnings };
        continue;
      }
      const next = validateCompressedHistory(strategy, history, result.newHistory);
      if (countRequest(context, next) >= tokensBefore) {
        skipped.push({ label, reason: 'no-progress', message: 'its result did not save tokens' });
        continue;
      }
      history = next;
      applied = true;
      llmCallMade ||= result.metadata.llmCallMade;
      for (const [key, count] of Object.entries(result.metadata.counts ?? {})) counts[`${label}.${key}`] = count;
    }
    if (!applied) {
      const last = skipped.at(-1);
      const message = skipped
        .map((step) => `${step.label}: ${step.reason}${step.message === undefined ? '' : ` (${step.message})`}`)
        .join('; ');
      return { type: 'no-op', reason: last?.reason ?? 'too-few-compressible', message, warnings };
    }
    return {
      type: 'applied',
      newHistory: history,
      metadata: {
        originalMessageCount: context.history.length,
        compressedMessageCount: history.length,
        strategyUsed: name,
        llmCallMade,
        counts,
      },
      warnings,
    };
  };

  const settings: ComposedStrategySettings = Object.freeze({
    steps: Object.freeze(
      steps.map(({ label, strategy }) => Object.freeze({ label, strategy: strategy.name, settings: strategy.settings })),
    ),
  });

  return {
    specificationVersion: 'v1',
    name,
    steps: Object.freeze([...strategies]),
    description:
      options.description ?? `Runs ${strategies.map((strategy) => strategy.name).join(', then ')}, in that order.`,
    requiresLLM: strategies.some((strategy) => strategy.requiresLLM),
    trigger: { mode: continuous ? 'continuous' : 'threshold', defaultThreshold: threshold },
    capabilities: combineCapabilities(strategies),
    settings,
    ...(continuous ? { optimize: (history: readonly HistoryEntry[], config: DensityConfig) => optimizeInSequence(history, config, steps) } : {}),
    compress,
    ...(expanding.length === 0
      ? {}
      : {
          expand: (history: readonly HistoryEntry[]): HistoryEntry[] => {
            let current = history;
            for (let position = expanding.length - 1; position >= 0; position--) {
              const step = expanding[position] as (typeof expanding)[number];
              current = (step.strategy.expand as NonNullable<CompressionStrategy['expand']>)(current);
            }
            return [...current];
          },
        }),
  };
}
