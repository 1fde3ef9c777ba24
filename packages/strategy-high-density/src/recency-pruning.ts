import type { ToolResponseBlock } from '@ctx/core';
import type { DensityEdits } from './density-edits.js';
import type { ReadRecord } from './read-write-pruning.js';
import { recencyPointerFor } from './recency-pointer.js';
import type { ResponseFacts } from './tool-call-facts.js';
import type { UndoJournal } from './undo-journal.js';

/** One tool response, in history order. */
export interface ResponseRecord {
  readonly entryIndex: number;
  readonly blockIndex: number;
  readonly block: ToolResponseBlock;
  readonly facts: ResponseFacts;
  /** The read this response answers, when read→write pruning may remove it. */
  readonly read: ReadRecord | undefined;
}

/**
 * Spec 000 §3c, tool result recency pruning: responses are counted per tool name from the newest back
 * (BR-RECENCY-001), every response block on its own (EC-032); past the newest `retention` (at least 1,
 * BR-RECENCY-005, EC-031) the result is replaced by the pointer (BR-RECENCY-002) while call and response stay
 * (BR-RECENCY-003). Responses an earlier phase removed are not counted (BR-CONFLICT-003, EC-040). A result the
 * pointer would not make smaller (`savesTokens`: less than twice its length) is left alone, so the pass never adds
 * tokens.
 */
export class RecencyPruning {
  private readonly byTool = new Map<string, ResponseRecord[]>();

  constructor(private readonly journal: UndoJournal) {}

  /** Registers a response under its tool's name. */
  add(toolName: string, record: ResponseRecord): void {
    let list = this.byTool.get(toolName);
    if (list === undefined) {
      list = [];
      this.byTool.set(toolName, list);
      if (this.journal.isOpen) this.journal.record(() => this.byTool.delete(toolName));
    }
    list.push(record);
    if (this.journal.isOpen) {
      const records = list;
      this.journal.record(() => records.pop());
    }
  }

  /**
   * Adds the pointer replacements.
   *
   * @param removedReads - Reads the read→write phase removed.
   * @param retention - Results kept per tool; values below 1 mean 1.
   * @param removeStaleRead - Removes a stale read the read→write phase folded instead of removing. A fold past the
   *   retention would become a pointer; spec 000 removes such a read, and the next pass would (the pointer shows
   *   no content to fold from), so it is removed now and the result stays idempotent.
   * @param scope - `per-tool` (spec 000) counts each tool name's results on its own; `all-tools` counts every
   *   result together, newest first, in history order.
   */
  collect(
    edits: DensityEdits,
    removedReads: ReadonlySet<ReadRecord>,
    retention: number,
    removeStaleRead: (read: ReadRecord) => void,
    scope: 'per-tool' | 'all-tools' = 'per-tool',
  ): void {
    const keep = Math.max(1, Math.floor(Number.isFinite(retention) ? retention : 1));
    const groups =
      scope === 'per-tool'
        ? [...this.byTool.values()]
        : [[...this.byTool.values()].flat().sort((first, second) => first.entryIndex - second.entryIndex || first.blockIndex - second.blockIndex)];
    for (const records of groups) {
      let kept = 0;
      for (let index = records.length - 1; index >= 0; index--) {
        const record = records[index] as ResponseRecord;
        if (record.read !== undefined && record.read.stale && removedReads.has(record.read)) continue;
        if (kept < keep) {
          kept++;
          continue;
        }
        if (record.read !== undefined && record.read.stale) {
          removeStaleRead(record.read);
          continue;
        }
        if (!record.facts.longerThanPointer) continue;
        edits.replaceBlock(record.entryIndex, record.blockIndex, { ...record.block, result: recencyPointerFor(record.facts.status) }, 'recency-pruned');
      }
    }
  }
}
