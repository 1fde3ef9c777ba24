import type { HistoryEntry } from '@ctx/core';
import { expandHistory } from './expand-history.js';
import type { ReferenceSource } from './lossless-record.js';
import { leafPathKey, listTextLeaves } from './text-leaves.js';

/**
 * Earlier content of the blocks references point at, for expanding a history from which a lossy pass (truncation,
 * summarization) has dropped some of them.
 */
export interface ReferenceStore {
  /** Every text the source had in the histories the store was built from, oldest first. */
  lookup(source: Extract<ReferenceSource, { kind: 'result' | 'call' }>): readonly string[];
}

/**
 * Builds a {@link ReferenceStore} from a history that still holds the sources: the uncompressed history (e.g. the
 * agent's transcript on disk), or the lossless output before a lossy pass ran. It is expanded first, so a compressed
 * history works as well as the original.
 *
 * @param history - The history to take sources from.
 * @returns The store.
 * @throws `LosslessReferenceError` when `history` itself cannot be expanded.
 * @example
 * ```ts
 * const store = createReferenceStore(transcript.history);
 * expandHistory(historyAfterTruncation, store);
 * ```
 */
export function createReferenceStore(history: readonly HistoryEntry[]): ReferenceStore {
  const texts = new Map<string, string[]>();
  const add = (key: string, text: string) => {
    const list = texts.get(key);
    if (list === undefined) texts.set(key, [text]);
    else list.push(text);
  };
  for (const entry of expandHistory(history)) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        for (const leaf of listTextLeaves(block.parameters, { scope: 'any' })) add(`call:${block.id}:${leafPathKey(leaf.path)}`, leaf.text);
      } else if (block.type === 'tool_response') {
        for (const leaf of listTextLeaves(block.result, { scope: 'text' })) add(`result:${block.callId}:${leafPathKey(leaf.path)}`, leaf.text);
      }
    }
  }
  return {
    lookup: (source) => texts.get(`${source.kind}:${source.id}:${leafPathKey(source.leaf)}`) ?? [],
  };
}
