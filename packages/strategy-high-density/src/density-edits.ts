import type { ContentBlock, DensityResult, DensityResultMetadata, HistoryEntry } from '@ctx/core';

/** What happened to a block, for the result's counts (spec 000 BR-CONFLICT-005: counts match what was done). */
export type EditKind = 'read-write-pruned' | 'read-folded' | 'file-deduplicated' | 'recency-pruned';

interface BlockEdit {
  /** The new block, or undefined when the block is removed. */
  readonly block: ContentBlock | undefined;
  readonly kind: EditKind;
  /** How many operations of `kind` this edit stands for (a text block may lose several inclusions). */
  readonly count: number;
}

function isBlank(block: ContentBlock): boolean {
  return block.type === 'text' && block.text.trim() === '';
}

/**
 * Block-level edits of a history by the density phases, merged into one {@link DensityResult} (spec 000 §2c). Later
 * phases see what earlier ones did (BR-CONFLICT-003): a removed block stays removed whatever a later phase asks
 * (removal wins, BR-CONFLICT-004, EC-040), and a later replacement of a block replaces the earlier one.
 */
export class DensityEdits {
  private readonly byEntry = new Map<number, Map<number, BlockEdit>>();

  /** True when the block is already removed. */
  isRemoved(entryIndex: number, blockIndex: number): boolean {
    const edit = this.byEntry.get(entryIndex)?.get(blockIndex);
    return edit !== undefined && edit.block === undefined;
  }

  /** Removes a block (and wins over any replacement of it). */
  removeBlock(entryIndex: number, blockIndex: number, kind: EditKind): void {
    this.blockEditsOf(entryIndex).set(blockIndex, { block: undefined, kind, count: 1 });
  }

  /** Replaces a block, unless it is already removed. */
  replaceBlock(entryIndex: number, blockIndex: number, block: ContentBlock, kind: EditKind, count = 1): void {
    if (this.isRemoved(entryIndex, blockIndex)) return;
    this.blockEditsOf(entryIndex).set(blockIndex, { block, kind, count });
  }

  /**
   * The merged result: an entry left with no content (no blocks, or only blank text) is removed (spec 000
   * EC-053), any other edited entry is replaced by a copy with its blocks edited (BR-PRUNE-004). Indices ascend.
   *
   * @param history - The history the edits refer to.
   * @returns The density result, with one count per operation that happened.
   */
  toResult(history: readonly HistoryEntry[]): DensityResult {
    const removals: number[] = [];
    const replacements = new Map<number, HistoryEntry>();
    const counts: Record<EditKind, number> = {
      'read-write-pruned': 0,
      'read-folded': 0,
      'file-deduplicated': 0,
      'recency-pruned': 0,
    };
    const entryIndices = [...this.byEntry.keys()].sort((first, second) => first - second);
    for (const entryIndex of entryIndices) {
      const edits = this.byEntry.get(entryIndex) as Map<number, BlockEdit>;
      const entry = history[entryIndex] as HistoryEntry;
      const blocks: ContentBlock[] = [];
      entry.blocks.forEach((block, blockIndex) => {
        const edit = edits.get(blockIndex);
        if (edit === undefined) blocks.push(block);
        else if (edit.block !== undefined) blocks.push(edit.block);
      });
      for (const edit of edits.values()) {
        // A removed tool call counts once, not again for its response.
        if (edit.kind === 'read-write-pruned' && entry.speaker !== 'ai') continue;
        counts[edit.kind] += edit.count;
      }
      if (blocks.every(isBlank)) removals.push(entryIndex);
      else replacements.set(entryIndex, { ...entry, blocks });
    }
    const metadata: DensityResultMetadata = {
      readWritePairsPruned: counts['read-write-pruned'],
      fileDeduplicationsPruned: counts['file-deduplicated'],
      recencyPruned: counts['recency-pruned'],
      ...(counts['read-folded'] > 0 ? { readsFolded: counts['read-folded'] } : {}),
    };
    return { removals, replacements, metadata };
  }

  private blockEditsOf(entryIndex: number): Map<number, BlockEdit> {
    let edits = this.byEntry.get(entryIndex);
    if (edits === undefined) {
      edits = new Map();
      this.byEntry.set(entryIndex, edits);
    }
    return edits;
  }
}
