import type { ContentBlock, HistoryEntry } from '@ctx/core';
import { isBlankEntry, lastToolLoopBound } from './tool-loop-bounds.js';

/** The assistant turn a history ends in while it is still in its tool loop; see {@link findOpenToolLoop}. */
export interface OpenToolLoop {
  /** The index of the loop's first (non-blank) `ai` entry: the step that opened it. */
  readonly start: number;
  /** Whether that step (or an `ai` entry right after it, the same turn) carries a thinking block. */
  readonly thinking: boolean;
  /**
   * Whether the assistant message that opened the loop starts with a thinking block: its `ai` entries from `start`
   * merged as codecs merge them (blank entries between them dropped), with what the Anthropic encoder drops aside —
   * blank text and thinking without a signature (Anthropic accepts only signed or redacted thinking, so a message
   * whose unsigned thinking comes first starts with whatever follows it). What Anthropic requires of the loop that
   * ends a request when thinking is on; `thinking` alone is not enough (a text step, a blank user message, then a
   * step with thinking and a call encode as one message that starts with the text).
   */
  readonly startsWithThinking: boolean;
}

const openLoops = new WeakMap<readonly HistoryEntry[], OpenToolLoop | undefined>();

/**
 * The assistant turn still in its tool loop at the end of a history, whether or not it opened with thinking.
 *
 * A history ends in an open tool loop when its last non-blank entry is a `tool` entry, or `human` entries that follow
 * one (encoded into the same user message as those results): the model called tools and is about to see their
 * results. With extended thinking on, Anthropic requires the assistant message that opened that loop (the first
 * assistant message after the last user message, preceding the lastmost tool use and result blocks) to start with
 * its thinking block; earlier turns may lose theirs ("Preserving thinking blocks" in Anthropic's extended-thinking
 * docs; the API answers 400 "a final `assistant` message must start with a thinking block" otherwise). So a strategy
 * must neither cut into a loop that opened with thinking nor leave a history, thinking on, ending in a loop whose
 * opening step has none — e.g. by putting a summary (a `human` entry, merged into those results) after a kept part
 * that ends in tool results.
 *
 * Blank entries are skipped the way codecs drop them. Cached per history array (histories are frozen snapshots).
 *
 * @param history - The canonical history.
 * @returns The loop, or undefined when the history does not end in one.
 * @example
 * ```ts
 * // [human "fix it", ai [call a], tool a, ai [thinking, text]]: closed by the answer
 * findOpenToolLoop(history); // undefined
 * // [human "fix it", ai [call a], tool a, human "summary"]
 * findOpenToolLoop(history); // { start: 1, thinking: false, startsWithThinking: false }
 * ```
 */
export function findOpenToolLoop(history: readonly HistoryEntry[]): OpenToolLoop | undefined {
  if (openLoops.has(history)) return openLoops.get(history);
  const loop = locate(history);
  openLoops.set(history, loop);
  return loop;
}

/**
 * Where the assistant turn still in its tool loop starts, when it opened with thinking — the entries a strategy must
 * not cut into (see {@link findOpenToolLoop}: cutting the history anywhere after that opener drops it and leaves a
 * later step, without thinking, opening the loop: a request Anthropic rejects).
 *
 * @param history - The canonical history.
 * @returns The index of the loop's first `ai` entry when it (or an `ai` entry right after it, the same turn) carries
 *   a thinking block; undefined when the history does not end in a tool loop, or its opener has no thinking.
 * @example
 * ```ts
 * // [human "fix it", ai [thinking, call a], tool a, ai [call b], tool b]
 * findThinkingToolLoopStart(history); // 1: keep history[1…] whole, or drop the whole loop
 * ```
 */
export function findThinkingToolLoopStart(history: readonly HistoryEntry[]): number | undefined {
  const loop = findOpenToolLoop(history);
  return loop?.thinking === true ? loop.start : undefined;
}

/** Blocks the Anthropic encoder leaves out of a message: blank text, and thinking neither signed nor redacted. */
function isDroppedForAnthropic(block: ContentBlock): boolean {
  if (block.type === 'text') return block.text.trim() === '';
  return block.type === 'thinking' && block.signature === undefined && block.redacted !== true;
}

function locate(history: readonly HistoryEntry[]): OpenToolLoop | undefined {
  // Human entries right after the last tool results (an interruption notice, a prompt typed while tools ran) are
  // encoded into the same user message as those results: the request still ends in the loop.
  let last = history.length - 1;
  while (last >= 0 && (isBlankEntry(history[last] as HistoryEntry) || history[last]?.speaker === 'human')) last--;
  if (last < 0 || history[last]?.speaker !== 'tool') return undefined;
  // The request's last user message: those results (and what the codec merges into them). Before it, the loop is
  // bounded by a user message with anything beside tool results: a human entry, or a tool entry carrying text.
  let finalStart = last;
  while (finalStart > 0 && (history[finalStart - 1]?.speaker === 'tool' || isBlankEntry(history[finalStart - 1] as HistoryEntry))) {
    finalStart--;
  }
  const user = lastToolLoopBound(history, finalStart);
  let opener = user + 1;
  while (opener <= last && (history[opener]?.speaker !== 'ai' || isBlankEntry(history[opener] as HistoryEntry))) opener++;
  if (opener > last) return undefined;
  const first = (history[opener] as HistoryEntry).blocks.find((block) => !isDroppedForAnthropic(block));
  const startsWithThinking = first?.type === 'thinking';
  for (let index = opener; index <= last; index++) {
    const entry = history[index] as HistoryEntry;
    if (isBlankEntry(entry)) continue;
    if (entry.speaker !== 'ai') break;
    if (entry.blocks.some((block) => block.type === 'thinking')) return { start: opener, thinking: true, startsWithThinking };
  }
  return { start: opener, thinking: false, startsWithThinking };
}
