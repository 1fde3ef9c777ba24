import type { HistoryEntry } from '@ctx/core';
import { readLosslessRecord, type LineReference, type SupersededState } from './lossless-record.js';

/** Where a reference or a superseded todo list sits in a history, and what it records. */
export interface LocatedContentReference {
  readonly entryIndex: number;
  readonly blockIndex: number;
  /** A marker and the lines it stands for (spec 004 FR-LC-003 `ContentReference` plus where its lines are). */
  readonly reference?: LineReference;
  /** A todo list replaced by a newer one (spec 004 FR-LC-004), with its original parameters. */
  readonly superseded?: SupersededState;
}

/**
 * Lists the references of a history in order, for a UI that shows or expands them one at a time (spec 004
 * FR-LC-003 "UI can optionally expand references"). Blocks whose record is not valid are skipped; use
 * `expandHistory` to restore and verify the whole history.
 *
 * @param history - A history the lossless strategy rewrote.
 * @returns One item per marker and per superseded todo list.
 * @example
 * ```ts
 * for (const { entryIndex, reference } of listContentReferences(history)) {
 *   if (reference) console.log(entryIndex, reference.type, reference.operation, `#${reference.originalIndex}`);
 * }
 * ```
 */
export function listContentReferences(history: readonly HistoryEntry[]): LocatedContentReference[] {
  const located: LocatedContentReference[] = [];
  history.forEach((entry, entryIndex) => {
    entry.blocks.forEach((block, blockIndex) => {
      if (block.type !== 'tool_call' && block.type !== 'tool_response') return;
      const { record } = readLosslessRecord(block);
      if (record === undefined) return;
      if (record.superseded !== undefined) located.push({ entryIndex, blockIndex, superseded: record.superseded });
      for (const reference of record.references ?? []) located.push({ entryIndex, blockIndex, reference });
    });
  });
  return located;
}
