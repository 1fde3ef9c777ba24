import type { HistoryEntry } from '@ctx/core';
import { countSharedPrefix } from './shared-prefix.js';

/**
 * True for an entry a provider request does not carry: no blocks, or only text blocks of whitespace. Provider codecs
 * drop such entries (Anthropic rejects empty content), so the entries around one meet: a blank `human` entry between
 * two tool steps is no turn boundary once encoded.
 *
 * @param entry - A history entry.
 * @returns Whether a codec drops it.
 * @example
 * ```ts
 * isBlankEntry({ speaker: 'human', blocks: [{ type: 'text', text: '  \n' }] }); // true
 * ```
 */
export function isBlankEntry(entry: HistoryEntry): boolean {
  return entry.blocks.every((block) => block.type === 'text' && block.text.trim() === '');
}

/** A non-blank human entry, or a tool entry with something beside its results (a reminder the harness appended). */
function boundsToolLoop(entry: HistoryEntry): boolean {
  if (isBlankEntry(entry)) return false;
  if (entry.speaker === 'human') return true;
  return (
    entry.speaker === 'tool' &&
    entry.blocks.some((block) => block.type !== 'tool_response' && !(block.type === 'text' && block.text.trim() === ''))
  );
}

/**
 * The frozen entries of one conversation already scanned, and for each the index of the last entry at or before it
 * that bounds a tool loop (-1 for none).
 */
interface ScannedBounds {
  readonly entries: HistoryEntry[];
  readonly lastBound: number[];
}

// Keyed by the conversation's first entry: an agent loop's histories share it from turn to turn, so each call scans
// only the entries appended since the last one, and a conversation's scan is dropped with it.
const scans = new WeakMap<HistoryEntry, ScannedBounds>();

/**
 * The index of the last entry before `end` that bounds a tool loop: a non-blank human entry, or a tool entry carrying
 * something beside its results. -1 when there is none.
 *
 * Frozen entries (the history model's) are scanned once per conversation: a later history that starts with the same
 * entry objects reuses what was found for them. An entry that is not frozen is read again on every call, so a caller
 * changing its entries in place is never answered from an old scan.
 *
 * @param history - The canonical history.
 * @param end - Where the search stops (exclusive).
 * @returns The bounding entry's index, or -1.
 */
export function lastToolLoopBound(history: readonly HistoryEntry[], end: number): number {
  const first = history[0];
  if (first === undefined || end <= 0) return -1;
  let scan = scans.get(first);
  if (scan === undefined) {
    scan = { entries: [], lastBound: [] };
    scans.set(first, scan);
  }
  const { entries, lastBound } = scan;
  const shared = countSharedPrefix(history, entries, end);
  if (shared < Math.min(entries.length, end)) {
    // The conversation changed here (an entry was cut or rewritten): what was scanned from here on is stale.
    entries.length = shared;
    lastBound.length = shared;
  } else if (shared === end) {
    return lastBound[end - 1] as number;
  }
  let bound = shared === 0 ? -1 : (lastBound[shared - 1] as number);
  let index = shared;
  for (; index < end; index++) {
    const entry = history[index] as HistoryEntry;
    if (!Object.isFrozen(entry)) break;
    if (boundsToolLoop(entry)) bound = index;
    entries.push(entry);
    lastBound.push(bound);
  }
  // Entries from the first unfrozen one on are read on every call and not remembered.
  for (; index < end; index++) if (boundsToolLoop(history[index] as HistoryEntry)) bound = index;
  return bound;
}
