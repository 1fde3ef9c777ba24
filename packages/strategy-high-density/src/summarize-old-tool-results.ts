import {
  getHistoryTokenTarget,
  type CompressionContext,
  type CompressionResult,
  type ContentBlock,
  type HistoryEntry,
  type StrategyWarning,
  type ToolCallBlock,
  type ToolResponseBlock,
  formatCount,
} from '@ctx/core';
import { isValidatedEntry, toValidatedEntry, type ToolCallSemantics, type ToolSemanticsRegistry } from '@ctx/strategy-utils';
import { strategyName, withGeneratedResult } from './generated-marker.js';
import { LatestFileStates } from './latest-file-states.js';
import {
  openFileAfter,
  outcomeOf,
  responseFactsOf,
  responseText,
  semanticsOf,
  type ClassificationScope,
} from './tool-call-facts.js';
import { summarizeToolResult } from './tool-result-summary.js';
import { resolveWorkspaceRoot } from './workspace-root.js';

/** Options of {@link planToolResultSummaries}. */
export interface SummaryPlanOptions {
  /** Assistant turns at the end whose results are never summarized. */
  readonly preserveRecentTurns: number;
  readonly registry: ToolSemanticsRegistry | undefined;
}

/** Which results to summarize, and what that gives. */
export interface SummaryPlan {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** The history's token target (`threshold × contextLimit × 0.6` minus system and tools). */
  readonly target: number;
  /** Entry index → the entry with its results summarized. */
  readonly replacements: ReadonlyMap<number, HistoryEntry>;
  readonly resultsSummarized: number;
  /**
   * Files whose latest state (a result holding it, see {@link LatestFileStates}) was summarized: 0 unless
   * summarizing everything else outside the preserved tail did not reach the target.
   */
  readonly latestFileStatesSummarized: number;
  /** Index of the first entry of the preserved tail. */
  readonly tailStart: number;
}

/**
 * How much a summary may cost the model: results it is likely to need again are summarized last. Tier 0: results
 * that hold no latest file state and report no error (command output, searches, listings, edit confirmations, and
 * file reads a later read or whole-file write superseded). Tier 1: results holding the latest state of a file
 * ({@link LatestFileStates}). Tier 2: errors (what failed must not be repeated).
 */
type Tier = 0 | 1 | 2;

interface CallInfo {
  readonly call: ToolCallBlock;
  readonly semantics: ToolCallSemantics;
}

interface Candidate {
  readonly entryIndex: number;
  readonly tier: Tier;
  /** Response blocks of the entry to summarize, with the calls they answer. */
  readonly blocks: readonly { readonly blockIndex: number; readonly call: CallInfo | undefined }[];
  /** Files whose latest state a block of this entry holds. */
  readonly latestStateOf: ReadonlySet<string>;
}

interface CachedSummary {
  readonly calls: readonly (ToolCallBlock | undefined)[];
  readonly workspaceRoot: string;
  readonly entry: HistoryEntry;
}

// A summarized entry depends only on the entry and the calls it answers: reusing the object keeps its token count
// cached in the context's counter.
const summaryCache = new WeakMap<HistoryEntry, CachedSummary>();

/** Index of the first `ai` entry of the `turns`-th assistant turn from the end (`history.length` for 0). */
function preservedTailStart(history: readonly HistoryEntry[], turns: number): number {
  let found = 0;
  for (let index = history.length - 1; index >= 0 && turns > 0; index--) {
    if (history[index]?.speaker !== 'ai' || history[index - 1]?.speaker === 'ai') continue;
    found++;
    if (found === turns) return index;
  }
  return found === 0 || turns === 0 ? history.length : 0;
}

function summarizedEntry(
  entry: HistoryEntry,
  blocks: Candidate['blocks'],
  workspaceRoot: string,
): HistoryEntry {
  const calls = blocks.map((item) => item.call?.call);
  const cached = summaryCache.get(entry);
  if (
    cached !== undefined &&
    cached.workspaceRoot === workspaceRoot &&
    cached.calls.length === calls.length &&
    cached.calls.every((call, index) => call === calls[index])
  ) {
    return cached.entry;
  }
  const replaced = new Map<number, ContentBlock>();
  for (const { blockIndex, call } of blocks) {
    const response = entry.blocks[blockIndex] as ToolResponseBlock;
    const summary = summarizeToolResult(response, call?.call, call?.semantics, {
      text: responseText(response),
      outcome: outcomeOf(response, call?.call),
    });
    replaced.set(blockIndex, withGeneratedResult(response, summary, { kind: 'summary' }));
  }
  // Validated, it is the object the orchestrator (or a pipeline) keeps rather than a copy made on every call.
  const summarized = toValidatedEntry({ ...entry, blocks: entry.blocks.map((block, index) => replaced.get(index) ?? block) });
  summaryCache.set(entry, { calls, workspaceRoot, entry: summarized });
  return summarized;
}

/**
 * Classifies the calls of `history[0…end)` and lists the tool entries whose results may be summarized, with tiers.
 * Latest file states are judged over the whole history (a read in the preserved tail supersedes older ones).
 */
function listCandidates(history: readonly HistoryEntry[], end: number, scope: ClassificationScope): Candidate[] {
  const states = new LatestFileStates();
  const found: { entryIndex: number; blocks: Candidate['blocks'] }[] = [];
  let openFile: string | undefined;
  let turnCalls = new Map<string, CallInfo>();
  for (let entryIndex = 0; entryIndex < history.length; entryIndex++) {
    const entry = history[entryIndex] as HistoryEntry;
    if (entry.speaker === 'ai') {
      if (history[entryIndex - 1]?.speaker !== 'ai') turnCalls = new Map();
      const unchanging = isValidatedEntry(entry);
      for (const block of entry.blocks) {
        if (block.type !== 'tool_call') continue;
        const semantics = semanticsOf(block, scope, openFile, unchanging);
        turnCalls.set(block.id, { call: block, semantics });
        openFile = semantics.openedFile ?? openFile;
      }
      continue;
    }
    if (entry.speaker !== 'tool') {
      turnCalls = new Map();
      continue;
    }
    const blocks: { blockIndex: number; call: CallInfo | undefined }[] = [];
    // Indexed: `forEach` over a frozen array takes V8's slow path.
    for (let blockIndex = 0; blockIndex < entry.blocks.length; blockIndex++) {
      const block = entry.blocks[blockIndex] as ContentBlock;
      if (block.type !== 'tool_response') continue;
      const call = turnCalls.get(block.callId);
      if (call !== undefined) {
        openFile = openFileAfter(openFile, call.semantics, block, scope.workspaceRoot);
        states.record(call.call, call.semantics, block, outcomeOf(block, call.call));
      }
      if (entryIndex >= end) continue;
      const facts = responseFactsOf(block);
      if (facts.isPointer || facts.marker?.kind === 'summary') continue;
      blocks.push({ blockIndex, call });
    }
    if (blocks.length > 0) found.push({ entryIndex, blocks });
  }
  // Tiers are known only once every later read and write has been seen.
  const latest = states.holders();
  return found.map(({ entryIndex, blocks }) => {
    let tier: Tier = 0;
    const latestStateOf = new Set<string>();
    for (const { call, blockIndex } of blocks) {
      const block = (history[entryIndex] as HistoryEntry).blocks[blockIndex] as ToolResponseBlock;
      const paths = latest.get(block) ?? [];
      for (const path of paths) latestStateOf.add(path);
      const blockTier: Tier = outcomeOf(block, call?.call).outcome === 'error' ? 2 : paths.length > 0 ? 1 : 0;
      if (blockTier > tier) tier = blockTier;
    }
    return { entryIndex, tier, blocks, latestStateOf };
  });
}

/**
 * Plans `compress()` (spec 000 §2c): keep the preserved tail, every tool call, human message and assistant text;
 * replace the payload of older tool results with a one-line summary, least needed first (see {@link Tier}), oldest
 * first within a tier except latest file states (largest first, so the fewest files lose their content), and stop
 * as soon as the history fits `threshold × contextLimit × 0.6` minus system and tools (BR-THRESH-004). A summary is
 * used only where it saves tokens. So the latest state of a file is summarized only once every cheaper result
 * outside the tail is; the plan counts how many files that touched.
 *
 * @param context - The compression context.
 * @param options - Tail size and tool registry.
 * @returns The plan.
 */
export function planToolResultSummaries(context: CompressionContext, options: SummaryPlanOptions): SummaryPlan {
  const { history, tokenCounter } = context;
  const tokensBefore = tokenCounter.countEntries(history);
  const target = getHistoryTokenTarget(context.budget);
  const tailStart = preservedTailStart(history, options.preserveRecentTurns);
  const replacements = new Map<number, HistoryEntry>();
  let tokensAfter = tokensBefore;
  let resultsSummarized = 0;
  const latestStatesSummarized = new Set<string>();
  if (tokensBefore > target && tailStart > 0) {
    const workspaceRoot = resolveWorkspaceRoot('/', history);
    const candidates = listCandidates(history, tailStart, { workspaceRoot, registry: options.registry });
    const savings = (tier: Tier) =>
      candidates
        .filter((candidate) => candidate.tier === tier)
        .map((candidate) => {
          const entry = history[candidate.entryIndex] as HistoryEntry;
          const summarized = summarizedEntry(entry, candidate.blocks, workspaceRoot);
          return { candidate, summarized, saving: tokenCounter.countEntry(entry) - tokenCounter.countEntry(summarized) };
        })
        .filter((item) => item.saving > 0);
    for (const tier of [0, 1, 2] as const) {
      const items = savings(tier);
      // Latest file states: the largest first, so the fewest files lose their content.
      if (tier === 1) items.sort((a, b) => b.saving - a.saving);
      // Errors say what must not be repeated: give them up only when that meets the target.
      if (tier === 2 && tokensAfter - items.reduce((sum, item) => sum + item.saving, 0) > target) break;
      for (const { candidate, summarized, saving } of items) {
        replacements.set(candidate.entryIndex, summarized);
        resultsSummarized += candidate.blocks.length;
        for (const path of candidate.latestStateOf) latestStatesSummarized.add(path);
        tokensAfter -= saving;
        if (tokensAfter <= target) break;
      }
      if (tokensAfter <= target) break;
    }
  }
  return {
    tokensBefore,
    tokensAfter,
    target,
    replacements,
    resultsSummarized,
    latestFileStatesSummarized: latestStatesSummarized.size,
    tailStart,
  };
}

/**
 * Runs the plan: a new history with the planned entries replaced (every other entry passed through as the same
 * object), or a no-op saying why nothing was done.
 *
 * @param context - The compression context.
 * @param options - Tail size and tool registry.
 * @returns The compression result.
 */
export function summarizeOldToolResults(context: CompressionContext, options: SummaryPlanOptions): CompressionResult {
  const { history } = context;
  if (history.length === 0) return { type: 'no-op', reason: 'empty-history' };
  if (context.signal?.aborted === true) return { type: 'no-op', reason: 'aborted' };
  const plan = planToolResultSummaries(context, options);
  if (plan.tokensBefore <= plan.target) {
    return {
      type: 'no-op',
      reason: 'already-under-target',
      message: `the history has ${formatCount(plan.tokensBefore)} tokens; the target is ${formatCount(plan.target)}`,
    };
  }
  if (plan.replacements.size === 0) {
    return {
      type: 'no-op',
      reason: 'too-few-compressible',
      message: `no tool result before the last ${options.preserveRecentTurns} assistant turns can be summarized to save tokens (${formatCount(plan.tokensBefore)} tokens, target ${formatCount(plan.target)})`,
    };
  }
  const newHistory = history.map((entry, index) => plan.replacements.get(index) ?? entry);
  const saved = plan.tokensBefore - plan.tokensAfter;
  const warnings: StrategyWarning[] = [
    {
      type: 'lossy',
      message: `replaced ${plan.resultsSummarized} tool results (${formatCount(saved)} tokens) with one-line summaries; re-running the tools shows them again`,
    },
  ];
  if (plan.latestFileStatesSummarized > 0) {
    warnings.push({
      type: 'lossy',
      message: `summarized the latest content of ${plan.latestFileStatesSummarized} ${plan.latestFileStatesSummarized === 1 ? 'file' : 'files'}: every other result before the last ${options.preserveRecentTurns} assistant turns was already summarized and the history was still over the target; the model must re-read ${plan.latestFileStatesSummarized === 1 ? 'it' : 'them'} to see the content`,
    });
  }
  if (plan.tokensAfter > plan.target) {
    warnings.push({
      type: 'target-not-met',
      message: `kept ${formatCount(plan.tokensAfter)} tokens, over the target of ${formatCount(plan.target)}: tool calls, messages and the last ${options.preserveRecentTurns} assistant turns are never summarized`,
    });
  }
  return {
    type: 'applied',
    newHistory,
    metadata: {
      originalMessageCount: history.length,
      compressedMessageCount: newHistory.length,
      strategyUsed: strategyName,
      llmCallMade: false,
      counts: {
        toolResultsSummarized: plan.resultsSummarized,
        latestFileStatesSummarized: plan.latestFileStatesSummarized,
        tokensSaved: saved,
      },
    },
    warnings,
  };
}
