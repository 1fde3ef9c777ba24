import { formatCount } from '../text/format-count.js';
import type { ContentBlock, ToolResponseBlock } from '../history/content-block.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { cutTextToTokens } from './cut-text-to-tokens.js';

/** Options of {@link cutOversizedToolResults}. */
export interface CutOversizedToolResultsOptions {
  /** Counts tokens the way the history does (its cache makes the sizes cheap). */
  readonly tokenCounter: TokenCounter;
  /** Tokens the history entries may take after the cut. */
  readonly maxHistoryTokens: number;
  /**
   * Tokens any one result may take, whatever the history's size: larger results are cut to it even when the
   * history fits (so one giant output does not crowd out the conversation).
   * @default no per-result limit
   */
  readonly maxResultTokens?: number;
  /**
   * Tokens every cut result keeps at least (its beginning and end, with the marker): below this a result says too
   * little to be worth its place.
   * @default 200
   */
  readonly minKeptTokens?: number;
}

/** One tool result that was shortened. */
export interface ToolResultCut {
  /** Index of the entry in the history given. */
  readonly entryIndex: number;
  readonly callId: string;
  readonly toolName: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

/** What {@link cutOversizedToolResults} did. */
export interface CutOversizedToolResultsResult {
  /** The new history: the same entry objects except the ones holding a cut result. */
  readonly history: readonly HistoryEntry[];
  readonly cuts: readonly ToolResultCut[];
  /** Tokens of the new history's entries. */
  readonly tokensAfter: number;
  /** Whether the new history is within `maxHistoryTokens`. */
  readonly fits: boolean;
}

interface Candidate {
  readonly entryIndex: number;
  readonly blockIndex: number;
  readonly block: ToolResponseBlock;
  readonly text: string;
  readonly tokens: number;
}

function resultText(result: ToolResponseBlock['result']): string {
  return typeof result === 'string' ? result : JSON.stringify(result);
}

/**
 * The last resort of the emergency path: shortens the largest tool results — a log, a file dump, a search that
 * matched everything — to their beginning and end, with a marker saying what was cut, until the history fits
 * `maxHistoryTokens` (and every result is within `maxResultTokens`, when given). The largest results are cut first and all to the same size (the largest size that fits), so
 * small results are not touched while a giant one stays whole. Tool calls and their results stay paired (only the
 * result's content changes); structured results become text.
 *
 * Everything cut is gone from the history; the agent's own transcript still has it. Pure: the input is not changed.
 *
 * @returns The new history and each cut; `fits: false` when even cutting every result to `minKeptTokens` is not
 *   enough (the rest of the history is too large).
 *
 * @example
 * ```ts
 * const { history: shorter, cuts } = cutOversizedToolResults(history.getRawHistory(), {
 *   tokenCounter: history.tokenCounter,
 *   maxHistoryTokens: 100_000,
 * });
 * ```
 */
export function cutOversizedToolResults(
  history: readonly HistoryEntry[],
  options: CutOversizedToolResultsOptions,
): CutOversizedToolResultsResult {
  const { tokenCounter: counter, maxHistoryTokens } = options;
  const minKeptTokens = Math.max(1, options.minKeptTokens ?? 200);
  const maxResultTokens = Math.max(minKeptTokens, options.maxResultTokens ?? Number.POSITIVE_INFINITY);
  const tokensBefore = counter.countEntries(history);
  const fitsAlready = tokensBefore <= maxHistoryTokens;
  if (fitsAlready && maxResultTokens === Number.POSITIVE_INFINITY) return { history, cuts: [], tokensAfter: tokensBefore, fits: true };

  const candidates: Candidate[] = [];
  // An entry no larger than the smallest size worth cutting holds no candidate; its count is cached, so this check
  // spares tokenizing its blocks again.
  const entryLimit = fitsAlready ? maxResultTokens : minKeptTokens;
  history.forEach((entry, entryIndex) => {
    if (entry.speaker !== 'tool' || counter.countEntry(entry) <= entryLimit) return;
    entry.blocks.forEach((block, blockIndex) => {
      if (block.type !== 'tool_response') return;
      const text = resultText(block.result);
      const tokens = counter.countText(text);
      if (tokens > minKeptTokens) candidates.push({ entryIndex, blockIndex, block, text, tokens });
    });
  });
  const largest = candidates.reduce((most, candidate) => Math.max(most, candidate.tokens), 0);
  if (candidates.length === 0 || (fitsAlready && largest <= maxResultTokens)) {
    return { history, cuts: [], tokensAfter: tokensBefore, fits: fitsAlready };
  }

  // The cap every cut result is shortened to: the largest that saves enough (water-filling over the sizes), and
  // never above the per-result limit.
  const excess = tokensBefore - maxHistoryTokens;
  const savedAt = (cap: number) => candidates.reduce((sum, candidate) => sum + Math.max(0, candidate.tokens - cap), 0);
  let low = minKeptTokens;
  let high = Math.min(largest, maxResultTokens);
  if (savedAt(low) < excess) high = low;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (savedAt(middle) >= excess) low = middle;
    else high = middle - 1;
  }

  let cap = low;
  let attempt = cutAt(history, candidates, cap, counter);
  // The marker and uneven token density can leave it a little over: tighten the cap and try again.
  for (let retry = 0; retry < 4 && attempt.tokensAfter > maxHistoryTokens && cap > minKeptTokens; retry++) {
    const over = attempt.tokensAfter - maxHistoryTokens;
    const cutCount = Math.max(1, attempt.cuts.length);
    cap = Math.max(minKeptTokens, cap - Math.ceil(over / cutCount) - 8);
    attempt = cutAt(history, candidates, cap, counter);
  }
  return { ...attempt, fits: attempt.tokensAfter <= maxHistoryTokens };
}

function cutAt(
  history: readonly HistoryEntry[],
  candidates: readonly Candidate[],
  cap: number,
  counter: TokenCounter,
): Omit<CutOversizedToolResultsResult, 'fits'> {
  const replacedBlocks = new Map<number, Map<number, ContentBlock>>();
  const cuts: ToolResultCut[] = [];
  for (const candidate of candidates) {
    if (candidate.tokens <= cap) continue;
    const cut = cutTextToTokens(candidate.text, cap, counter, `${candidate.block.toolName} result`);
    if (cut.tokensAfter >= candidate.tokens) continue;
    const blocks = replacedBlocks.get(candidate.entryIndex) ?? new Map<number, ContentBlock>();
    blocks.set(candidate.blockIndex, { ...candidate.block, result: cut.text });
    replacedBlocks.set(candidate.entryIndex, blocks);
    cuts.push({
      entryIndex: candidate.entryIndex,
      callId: candidate.block.callId,
      toolName: candidate.block.toolName,
      tokensBefore: candidate.tokens,
      tokensAfter: cut.tokensAfter,
    });
  }
  const next = history.map((entry, entryIndex) => {
    const blocks = replacedBlocks.get(entryIndex);
    if (blocks === undefined) return entry;
    return { ...entry, blocks: entry.blocks.map((block, blockIndex) => blocks.get(blockIndex) ?? block) };
  });
  return { history: next, cuts, tokensAfter: counter.countEntries(next) };
}

/**
 * One sentence for a `lossy` warning about {@link cutOversizedToolResults}' cuts: how many results, the tokens
 * saved, the first five by tool and call id with their sizes before → after, and where the full output still is.
 *
 * @param where - Where the cut content can still be read, e.g. `the full output is in /tmp/session.jsonl`.
 * @example
 * ```ts
 * describeToolResultCuts(cuts, "the agent's own transcript still has it");
 * // "cut 1 tool result to its beginning and end to fit the context window (391,032 tokens): Bash (call_7)
 * //  452,301 → 61,269; the cut part is not in the history (the agent's own transcript still has it)"
 * ```
 */
export function describeToolResultCuts(cuts: readonly ToolResultCut[], where: string): string {
  const listed = cuts
    .slice(0, 5)
    .map((cut) => `${cut.toolName} (${cut.callId}) ${formatCount(cut.tokensBefore)} → ${formatCount(cut.tokensAfter)}`);
  const more = cuts.length > listed.length ? `, and ${formatCount(cuts.length - listed.length)} more` : '';
  const saved = cuts.reduce((sum, cut) => sum + cut.tokensBefore - cut.tokensAfter, 0);
  const what = cuts.length === 1 ? '1 tool result to its beginning and end' : `${formatCount(cuts.length)} tool results to their beginning and end`;
  return `cut ${what} to fit the context window (${formatCount(saved)} tokens): ${listed.join(', ')}${more}; the cut part is not in the history (${where})`;
}
