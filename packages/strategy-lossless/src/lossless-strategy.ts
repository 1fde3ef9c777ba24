import {
  DEFAULT_COMPRESSION_THRESHOLD,
  createEmptyDensityResult,
  parseStrategySettings,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type DensityResult,
  type HistoryEntry,
  type ReductionEstimate,
  type StrategyWarning,
  formatCount,
} from '@ctx/core';
import { checkCompressionPreconditions, inferWorkspaceRoot } from '@ctx/strategy-utils';
import {
  losslessSettingsSchema,
  type LosslessSettings,
  type LosslessSettingsInput,
} from './lossless-settings.js';
import { expandHistory } from './expand-history.js';
import { createReferencePlanCache } from './reference-plan-cache.js';
import { isFrozenHistory, sharedReferencePlans } from './shared-reference-plans.js';
import { planSupersededTodos } from './plan-superseded-todos.js';

const name = 'lossless';

/** A compress plan: the new history, the per-operation counts, and the tokens before and after. */
interface CompressPlan {
  readonly newHistory: readonly HistoryEntry[];
  readonly counts: Readonly<Record<string, number>>;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly changed: number;
}

/**
 * Creates the lossless strategy (spec 004 FR-LC-001..004): it removes only redundancy, and everything it removes
 * can be restored exactly with `expandHistory`.
 *
 * Continuous: `optimize()` runs before every send and replaces, in results added since the last run, every run of
 * lines the model was already shown — a re-read file, the unchanged part of a file read again after an edit (line
 * numbers shifted or not), a repeated command output, a listing or search that overlaps an earlier one, content a
 * `Write` or `Edit` call wrote — with a one-line reference to where it is (`⟨ Reference: See message #12 for lines
 * 118–158 (Read annotation.ex) · 3f9a1c ⟩`). It only ever rewrites new entries and only points backwards, so the
 * provider's prompt cache of the older history stays valid. `compress()`, when the context passes the threshold,
 * does the same for entries not yet rewritten and also replaces superseded todo lists (FR-LC-004), which rewrites
 * older entries. An error result stays its own block with its new lines and its last lines verbatim (FR-LC-002);
 * repeated lines in the model's own tool calls become references too, except in turns with signed thinking. No
 * model calls.
 *
 * Incremental: the strategy keeps its plan of each history it saw (per conversation, keyed by the entries
 * themselves, never by caller), so a history that extends one seen before — the previous result applied or not —
 * costs only its new entries: their lines are indexed and searched, nothing else is planned again, and the
 * replacement entries planned before are handed out again as they were. The result is exactly a full plan's. Plans
 * of frozen histories (every entry frozen, as `HistoryService` holds them) are shared by all lossless strategies
 * with the same settings, so a new strategy asked about a history another one planned answers at once.
 *
 * Where the references' store lives: in the history itself. Each rewritten block carries its recipe (sources by
 * call id, line ranges, hashes; the original of a superseded list) in `providerMetadata.ctx.lossless`, which is
 * never sent to a model, so a history persisted with its provider metadata can be expanded after a restart. A lossy
 * strategy that runs later may drop sources: keep the transcript and pass `createReferenceStore(transcript)`.
 *
 * @param settings - Validated once, here.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings, e.g. `minReferenceCharacters: 10`.
 *
 * @example
 * ```ts
 * const lossless = createLosslessStrategy();
 * const orchestrator = createCompressionOrchestrator({
 *   history,
 *   strategies: [lossless, createTopDownTruncationStrategy()],
 *   contextLimit: 200_000,
 *   settings: { 'compression.strategy': 'lossless', 'compression.fallbackStrategies': ['top-down-truncation'] },
 * });
 * ```
 */
export function createLosslessStrategy(settings?: LosslessSettingsInput): CompressionStrategy<LosslessSettings> {
  const resolved = parseStrategySettings(losslessSettingsSchema, settings, name);
  // Plans kept by input (never by caller): a history that extends one planned before costs only its new entries.
  // Frozen histories (as HistoryService holds them) share plans with every strategy of the same settings; others
  // are planned by this strategy alone.
  const ownPlans = createReferencePlanCache(resolved);
  const sharedSettings = Object.freeze({ ...resolved });
  const plans = {
    plan: (history: readonly HistoryEntry[], workspaceRoot: string) =>
      (isFrozenHistory(history) ? sharedReferencePlans(sharedSettings) : ownPlans).plan(history, workspaceRoot),
  };

  const planCompression = (context: CompressionContext): CompressPlan => {
    const { history, tokenCounter } = context;
    const workspaceRoot = inferWorkspaceRoot(history);
    const references = plans.plan(history, workspaceRoot);
    const todos = resolved.removeObsoleteState
      ? planSupersededTodos(history, { workspaceRoot, referencedSources: references.referencedSources })
      : undefined;
    const replacements = new Map([...references.replacements, ...(todos?.replacements ?? [])]);
    const tokensBefore = tokenCounter.countEntries(history);
    let changed = 0;
    const newHistory = history.map((entry, index) => {
      const replacement = replacements.get(index);
      // The character rules make a reference shorter than what it replaces; this check makes "never more tokens"
      // hold for any tokenizer. Dropping a replacement is always safe: its lines stay where references expect them.
      if (replacement === undefined || tokenCounter.countEntry(replacement) >= tokenCounter.countEntry(entry)) return entry;
      changed++;
      return replacement;
    });
    const tokensAfter = tokenCounter.countEntries(newHistory);
    return {
      newHistory,
      counts: {
        ...references.counts,
        obsoleteStatesRemoved: references.counts.obsoleteStatesRemoved + (todos?.superseded ?? 0),
        entriesRewritten: changed,
        tokensSaved: tokensBefore - tokensAfter,
      },
      tokensBefore,
      tokensAfter,
      changed,
    };
  };

  return {
    specificationVersion: 'v1',
    name,
    description:
      'Replaces content the model was already shown (repeated reads, overlapping line ranges, repeated outputs, superseded todo lists) with verifiable references; expandHistory() restores it exactly.',
    requiresLLM: false,
    trigger: { mode: 'continuous', defaultThreshold: DEFAULT_COMPRESSION_THRESHOLD },
    capabilities: { lossless: true, estimatedSpeed: 'fast' },
    settingsSchema: losslessSettingsSchema,
    settings: resolved,

    optimize(history, config): DensityResult {
      if (history.length === 0) return createEmptyDensityResult();
      const plan = plans.plan(history, config.workspaceRoot);
      if (plan.replacements.size === 0) return createEmptyDensityResult();
      // A copy: the plan's own map is handed out again while the history stays the same.
      return { removals: [], replacements: new Map(plan.replacements), metadata: { ...plan.counts } };
    },

    expand: (history) => expandHistory(history),

    compress(context): Promise<CompressionResult> {
      const { history } = context;
      const start = checkCompressionPreconditions(context);
      if (start.kind === 'no-op') return Promise.resolve(start.result);
      const { tokensBefore: total, target } = start;
      const plan = planCompression(context);
      if (plan.changed === 0) {
        return Promise.resolve({
          type: 'no-op',
          reason: 'too-few-compressible',
          message: `nothing redundant is left to reference (${formatCount(total)} tokens, target ${formatCount(target)}); lossless removes only redundancy, so configure a fallback strategy to go further`,
        });
      }
      const warnings: StrategyWarning[] = [];
      if (plan.tokensAfter > target) {
        warnings.push({
          type: 'target-not-met',
          message: `removed ${formatCount(plan.tokensBefore - plan.tokensAfter)} tokens of redundancy; ${formatCount(plan.tokensAfter)} tokens remain, over the target of ${formatCount(target)}`,
        });
      }
      return Promise.resolve({
        type: 'applied',
        newHistory: plan.newHistory,
        metadata: {
          originalMessageCount: history.length,
          compressedMessageCount: plan.newHistory.length,
          strategyUsed: name,
          llmCallMade: false,
          counts: plan.counts,
        },
        warnings,
      });
    },

    estimateReduction(context): Promise<ReductionEstimate> {
      const tokensBefore = context.tokenCounter.countEntries(context.history);
      if (context.history.length === 0) return Promise.resolve({ tokensBefore, estimatedTokensAfter: tokensBefore });
      return Promise.resolve({ tokensBefore, estimatedTokensAfter: planCompression(context).tokensAfter });
    },
  };
}
