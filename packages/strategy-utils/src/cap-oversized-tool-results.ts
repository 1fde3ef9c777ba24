import { cutOversizedToolResults, type CompressionContext, type ToolResultCut } from '@ctx/core';

/** Share of the compression target one tool result may take before {@link capOversizedToolResults} cuts it. */
export const MAX_TOOL_RESULT_SHARE = 0.5;

/** What {@link capOversizedToolResults} did: the context to plan on, and the results it cut. */
export interface CappedToolResults {
  /** The context with the cut history (the same object when nothing was cut). */
  readonly context: CompressionContext;
  readonly cuts: readonly ToolResultCut[];
}

/**
 * Cuts every tool result that alone takes more than half the history's target (a log, a file dump, a search that
 * matched everything) to its beginning and end, before a strategy plans what to keep — so one giant output, even
 * the newest, can neither make the target unreachable nor crowd the rest of the conversation out of it. Tool calls
 * and results stay paired; entries without such a result stay the same objects.
 *
 * @param context - The compression context.
 * @param targetTokens - The history's target (`getHistoryTokenTarget(context.budget)`).
 * @returns The context to plan on and the cuts (report them with `describeToolResultCuts` from `@ctx/core`).
 *
 * @example
 * ```ts
 * const { context: planned, cuts } = capOversizedToolResults(context, target);
 * ```
 */
export function capOversizedToolResults(context: CompressionContext, targetTokens: number): CappedToolResults {
  const outcome = cutOversizedToolResults(context.history, {
    tokenCounter: context.tokenCounter,
    maxHistoryTokens: Number.POSITIVE_INFINITY,
    maxResultTokens: Math.floor(targetTokens * MAX_TOOL_RESULT_SHARE),
  });
  if (outcome.cuts.length === 0) return { context, cuts: [] };
  return { context: { ...context, history: Object.freeze([...outcome.history]) }, cuts: outcome.cuts };
}

/** Where a cut's full output can still be read, for `describeToolResultCuts`. */
export function whereCutOutputIs(context: Pick<CompressionContext, 'transcriptPath'>): string {
  return context.transcriptPath === undefined ? "the agent's own transcript still has it" : `the full output is in ${context.transcriptPath}`;
}
