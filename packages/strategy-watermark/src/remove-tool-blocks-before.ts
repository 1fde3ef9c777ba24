import type { ContentBlock, HistoryEntry } from '@ctx/core';
import { findThinkingToolLoopStart } from '@ctx/strategy-utils';

/** Options of {@link removeToolBlocksBefore}. */
export interface RemoveToolBlocksOptions {
  /**
   * Also remove thinking blocks (whole) before the boundary.
   * @default false
   */
  readonly removeThinking?: boolean;
}

/** What {@link removeToolBlocksBefore} removed. */
export interface ToolBlockRemovalCounts {
  readonly toolCallsRemoved: number;
  readonly toolResultsRemoved: number;
  readonly thinkingBlocksRemoved: number;
  /** Entries left with no content, dropped. */
  readonly entriesRemoved: number;
  /** Entries that kept some content and lost blocks. */
  readonly entriesEdited: number;
}

/** The edits {@link removeToolBlocksBefore} makes, both as index-based edits and as the resulting history. */
export interface ToolBlockRemoval {
  /** Indices (into the input) of the entries dropped, ascending. */
  readonly removals: readonly number[];
  /** Index (into the input) → the entry with its tool blocks removed. */
  readonly replacements: ReadonlyMap<number, HistoryEntry>;
  /** The edited history: entries not edited are the input's own objects (the input itself when nothing is removed). */
  readonly history: readonly HistoryEntry[];
  readonly counts: ToolBlockRemovalCounts;
}

/** A tool block, or a thinking block when thinking goes too. */
function isRemovable(block: ContentBlock, thinkingGoes: boolean): boolean {
  return block.type === 'tool_call' || block.type === 'tool_response' || (thinkingGoes && block.type === 'thinking');
}

/** Content a provider would still send: anything but blank text (codecs drop it, and Anthropic rejects it). */
function hasContent(blocks: readonly ContentBlock[]): boolean {
  return blocks.some((block) => block.type !== 'text' || block.text.trim() !== '');
}

/**
 * Removes every `tool_call` and `tool_response` block (and, when asked, every thinking block) from the entries
 * before `boundaryIndex`, keeping all text and media; an entry left without content is dropped (spec 003 §5
 * "block-level filtering"). Entries from `boundaryIndex` on are kept unchanged.
 *
 * Pair-safe when `boundaryIndex` starts an assistant turn (or is 0 or the history's length): every call before it
 * is answered before it, so calls and results go together. Linear; never mutates its input.
 *
 * @param history - The canonical history.
 * @param boundaryIndex - Where the kept part starts, e.g. the `boundaryIndex` of `findWatermarkBoundary`.
 * @param options - Whether to remove thinking too.
 * @returns The edits and the edited history; no removals and no replacements when there is nothing to remove.
 * @example
 * ```ts
 * const boundary = findWatermarkBoundary(history, 'toolu_222');
 * if (boundary) removeToolBlocksBefore(history, boundary.boundaryIndex).counts; // { toolCallsRemoved: 12, … }
 * ```
 */
export function removeToolBlocksBefore(
  history: readonly HistoryEntry[],
  boundaryIndex: number,
  options: RemoveToolBlocksOptions = {},
): ToolBlockRemoval {
  return removeToolBlocksBetween(history, 0, boundaryIndex, options);
}

/**
 * Whether an entry holds nothing {@link removeToolBlocksBefore} removes, wherever it sits: a human entry, or one
 * without tool blocks (and, with `removeThinking`, without thinking).
 *
 * @param entry - A history entry.
 * @param options - The removal's options.
 * @returns True when the entry is kept as it is.
 */
export function holdsNothingToRemove(entry: HistoryEntry, options: RemoveToolBlocksOptions = {}): boolean {
  const removeThinking = options.removeThinking ?? false;
  return entry.speaker === 'human' || !entry.blocks.some((block) => isRemovable(block, removeThinking));
}

/** The history with the removal applied; the input itself when nothing changed. */
function applyRemoval(
  history: readonly HistoryEntry[],
  removals: readonly number[],
  replacements: ReadonlyMap<number, HistoryEntry>,
): readonly HistoryEntry[] {
  if (removals.length === 0 && replacements.size === 0) return history;
  const removed = new Set(removals);
  return history.flatMap((entry, index) => (removed.has(index) ? [] : [replacements.get(index) ?? entry]));
}

/**
 * {@link removeToolBlocksBefore} for a caller that knows the entries before `from` hold nothing to remove
 * ({@link holdsNothingToRemove}): they are kept without being read.
 *
 * @param history - The history; not modified.
 * @param from - The first entry read.
 * @param boundaryIndex - The watermark turn's first entry.
 * @param options - Whether thinking goes too.
 * @returns The removal.
 */
export function removeToolBlocksBetween(
  history: readonly HistoryEntry[],
  from: number,
  boundaryIndex: number,
  options: RemoveToolBlocksOptions = {},
): ToolBlockRemoval {
  const removeThinking = options.removeThinking ?? false;
  // The thinking of the turn still in its tool loop stays even with removeThinking: Anthropic rejects the request
  // when the step that opened that loop lost it (strategy-utils' findThinkingToolLoopStart).
  const loopStart = removeThinking ? (findThinkingToolLoopStart(history) ?? history.length) : history.length;
  const removerAt = (index: number) => (block: ContentBlock) => isRemovable(block, removeThinking && index < loopStart);
  const removals: number[] = [];
  const replacements = new Map<number, HistoryEntry>();
  const end = Math.min(Math.max(boundaryIndex, 0), history.length);
  const start = Math.min(Math.max(from, 0), end);
  let toolCallsRemoved = 0;
  let toolResultsRemoved = 0;
  let thinkingBlocksRemoved = 0;

  for (let index = start; index < end; index++) {
    const entry = history[index] as HistoryEntry;
    const isRemoved = removerAt(index);
    // Human entries hold only text and media: nothing to remove, and user text stays verbatim.
    if (entry.speaker === 'human' || !entry.blocks.some(isRemoved)) continue;
    const kept: ContentBlock[] = [];
    for (const block of entry.blocks) {
      if (!isRemoved(block)) kept.push(block);
      else if (block.type === 'tool_call') toolCallsRemoved++;
      else if (block.type === 'tool_response') toolResultsRemoved++;
      else thinkingBlocksRemoved++;
    }
    if (hasContent(kept)) {
      const replacement: HistoryEntry = { ...entry, blocks: kept };
      replacements.set(index, replacement);
    } else {
      removals.push(index);
    }
  }

  return {
    removals,
    replacements,
    history: applyRemoval(history, removals, replacements),
    counts: {
      toolCallsRemoved,
      toolResultsRemoved,
      thinkingBlocksRemoved,
      entriesRemoved: removals.length,
      entriesEdited: replacements.size,
    },
  };
}
