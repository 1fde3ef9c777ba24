import {
  cutOversizedToolResults,
  parseHistoryEntry,
  type HistoryEntry,
  type TokenCounter,
  type ToolCallBlock,
  type ToolResultCut,
} from '@ctx/core';
import { MAX_TOOL_RESULT_SHARE, classifyToolResult } from '@ctx/strategy-utils';
import { planTruncation, type TruncationCounts, type TruncationPlan } from './plan-truncation.js';
import { selectZones } from './select-zones.js';
import type { ShorteningCache } from './shortening-cache.js';
import type { TruncationSettings } from './truncation-settings.js';

/** Everything one truncation pass did, tool results cut to fit the budget included. */
export interface BudgetedTruncationCounts extends TruncationCounts {
  /** Tool results cut to their beginning and end to fit the budget (`cutOversizedToolResults`). */
  toolResultsCut: number;
}

/** The outcome of {@link planWithinBudget}. */
export interface BudgetedTruncationPlan extends Omit<TruncationPlan, 'counts'> {
  readonly counts: BudgetedTruncationCounts;
  /** The tool results cut to their beginning and end, indexed into the input history, oldest first. */
  readonly resultCuts: readonly ToolResultCut[];
  /** Tokens the cuts saved (part of `counts.tokensSaved` and `counts.toolResultTokensSaved`). */
  readonly cutTokensSaved: number;
}

/** Options of {@link planWithinBudget}. */
export interface PlanWithinBudgetOptions {
  readonly settings: TruncationSettings;
  readonly tokenCounter: TokenCounter;
  /** Tokens the history may take (`getHistoryTokenTarget(context.budget)`). */
  readonly targetTokens: number;
  /** The strategy's shortenings from earlier calls (see `planTruncation`). */
  readonly cache?: ShorteningCache;
}

/** Validated and frozen, like the entries `planTruncation` creates, so the orchestrator keeps these very objects. */
function validated(history: readonly HistoryEntry[], original: readonly HistoryEntry[]): HistoryEntry[] {
  return history.map((entry, index) => (entry === original[index] ? entry : parseHistoryEntry(entry)));
}

/** Tool entries holding an error result (`classifyToolResult`), which `preserveErrors` keeps verbatim. */
function holdsError(entry: HistoryEntry, callsById: ReadonlyMap<string, ToolCallBlock>): boolean {
  return (
    entry.speaker === 'tool' &&
    entry.blocks.some((block) => block.type === 'tool_response' && classifyToolResult(block, callsById.get(block.callId)).outcome === 'error')
  );
}

/** What {@link cutUntilFits} did. */
interface FittingCuts {
  readonly history: readonly HistoryEntry[];
  /** Indexed into the history given. */
  readonly cuts: readonly ToolResultCut[];
}

/**
 * Cuts the largest tool results of `history` until it fits `targetTokens`, widening the set of results it may cut
 * only while it does not fit: first the results truncation left whole (the recent zone, `keep` mode) except
 * preserved errors, then preserved errors too, then the results truncation already shortened. Each step cuts the
 * largest of its results to the same size (`cutOversizedToolResults`).
 *
 * @param history - The history after truncation.
 * @param tiers - For each entry, the first step that may cut its results (0, 1 or 2).
 * @returns The cut history and the cuts, or undefined when nothing was cut.
 */
function cutUntilFits(history: readonly HistoryEntry[], tiers: readonly number[], options: PlanWithinBudgetOptions): FittingCuts | undefined {
  const { tokenCounter, targetTokens } = options;
  let current = history;
  const cuts = new Map<number, ToolResultCut>();
  for (let tier = 0; tier <= 2; tier++) {
    const cuttable = [...current.keys()].filter((index) => (tiers[index] as number) <= tier);
    if (cuttable.length === 0) continue;
    const cuttableEntries = cuttable.map((index) => current[index] as HistoryEntry);
    const otherTokens = tokenCounter.countEntries(current) - tokenCounter.countEntries(cuttableEntries);
    const step = cutOversizedToolResults(cuttableEntries, { tokenCounter, maxHistoryTokens: targetTokens - otherTokens });
    if (step.cuts.length > 0) {
      const replaced = [...current];
      cuttable.forEach((historyIndex, index) => {
        replaced[historyIndex] = step.history[index] as HistoryEntry;
      });
      current = replaced;
      for (const cut of step.cuts) {
        const entryIndex = cuttable[cut.entryIndex] as number;
        const earlier = cuts.get(entryIndex);
        cuts.set(entryIndex, { ...cut, entryIndex, tokensBefore: earlier?.tokensBefore ?? cut.tokensBefore });
      }
    }
    if (step.fits) break;
  }
  return cuts.size === 0 ? undefined : { history: current, cuts: [...cuts.values()] };
}

/**
 * The whole truncation plan, made to fit the budget whenever anything can (with `cutOversizedToolResults`, the
 * default):
 *
 * 1. Tool results in the first message and the recent zone — which truncation never touches — that alone take more
 *    than half the target are cut to their beginning and end, so one giant output (the newest one, typically) can
 *    neither make the target unreachable nor crowd the rest of the conversation out. The old zone is left to
 *    truncation's own cut, which keeps far less of each result and says exactly how much it cut.
 * 2. The mechanical truncation of the old zone ({@link planTruncation}).
 * 3. When the history is still over the target, the largest tool results are cut, all to the same size, until it
 *    fits: the results truncation left whole first (the recent zone, `keep` mode), preserved errors only when that
 *    is not enough, and results truncation already shortened last.
 *
 * Cuts keep every tool call paired with its result and are marked in the text. Without `cutOversizedToolResults`
 * it is {@link planTruncation} alone.
 *
 * @param history - The history.
 * @param options - Settings, the token counter and the target.
 * @returns The new history, the counts (`toolResultsCut` and the token savings include the cuts) and the cuts.
 */
export function planWithinBudget(history: readonly HistoryEntry[], options: PlanWithinBudgetOptions): BudgetedTruncationPlan {
  const { settings, tokenCounter, targetTokens } = options;
  if (!settings.cutOversizedToolResults) {
    const plan = planTruncation(history, options);
    return { ...plan, counts: { ...plan.counts, toolResultsCut: 0 }, resultCuts: [], cutTokensSaved: 0 };
  }
  const tokensBefore = tokenCounter.countEntries(history);

  // 1. Cap the results of the zones truncation keeps.
  const zones = selectZones(history, settings.preserveRecentCount);
  const keptIndices = [...history.keys()].filter((index) => index < zones.oldStart || index >= zones.oldEnd);
  const keptEntries = keptIndices.map((index) => history[index] as HistoryEntry);
  const capped = cutOversizedToolResults(keptEntries, {
    tokenCounter,
    maxHistoryTokens: Number.POSITIVE_INFINITY,
    maxResultTokens: Math.floor(targetTokens * MAX_TOOL_RESULT_SHARE),
  });
  let planned = history;
  const cuts = new Map<number, ToolResultCut>();
  if (capped.cuts.length > 0) {
    const cappedEntries = validated(capped.history, keptEntries);
    const replaced = [...history];
    keptIndices.forEach((historyIndex, index) => {
      replaced[historyIndex] = cappedEntries[index] as HistoryEntry;
    });
    planned = replaced;
    for (const cut of capped.cuts) {
      const entryIndex = keptIndices[cut.entryIndex] as number;
      cuts.set(entryIndex, { ...cut, entryIndex });
    }
  }

  // 2. Truncate the old zone.
  const plan = planTruncation(planned, options);
  let output = plan.history;
  let tokensAfter = plan.tokensAfter;

  // 3. Still over the target: cut the largest results until it fits.
  if (tokensAfter > targetTokens) {
    const callsById = new Map<string, ToolCallBlock>();
    for (const entry of planned) {
      if (entry.speaker === 'ai') for (const block of entry.blocks) if (block.type === 'tool_call') callsById.set(block.id, block);
    }
    const tiers = output.map((entry, index) => {
      if (entry !== planned[plan.origins[index] as number]) return 2;
      return settings.preserveErrors && holdsError(entry, callsById) ? 1 : 0;
    });
    const filled = cutUntilFits(output, tiers, options);
    if (filled !== undefined) {
      output = validated(filled.history, output);
      tokensAfter = tokenCounter.countEntries(output);
      for (const cut of filled.cuts) {
        const entryIndex = plan.origins[cut.entryIndex] as number;
        const earlier = cuts.get(entryIndex);
        cuts.set(entryIndex, { ...cut, entryIndex, tokensBefore: earlier?.tokensBefore ?? cut.tokensBefore });
      }
    }
  }

  const resultCuts = [...cuts.values()].sort((first, second) => first.entryIndex - second.entryIndex);
  const cutSavings = tokensBefore - plan.tokensBefore + (plan.tokensAfter - tokensAfter);
  const entriesChanged = output.filter((entry, index) => entry !== history[plan.origins[index] as number]).length;
  return {
    ...plan,
    history: output,
    tokensBefore,
    tokensAfter,
    counts: {
      ...plan.counts,
      entriesChanged,
      tokensSaved: tokensBefore - tokensAfter,
      toolResultTokensSaved: plan.counts.toolResultTokensSaved + cutSavings,
      toolResultsCut: resultCuts.length,
    },
    resultCuts,
    cutTokensSaved: cutSavings,
  };
}
