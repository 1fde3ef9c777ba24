import type { ContentBlock, HistoryEntry, TextBlock } from '@ctx/core';
import { normalizeToolPath } from '@ctx/strategy-utils';
import type { DensityEdits } from './density-edits.js';
import { findFileInclusions, isWorthStripping, stripFileInclusions, type FileInclusion } from './file-inclusions.js';
import type { UndoJournal } from './undo-journal.js';

interface InclusionLocation {
  readonly entryIndex: number;
  readonly blockIndex: number;
  readonly block: TextBlock;
  readonly inclusion: FileInclusion;
}

/**
 * Spec 000 §3b, duplicate `@` file inclusion dedup, as state that grows entry by entry: every inclusion of a file
 * (path normalized against the workspace, BR-PRUNE-005/006) makes the previous one stale (BR-DEDUP-002, EC-021);
 * stale inclusions are stripped from the human message's text, which is replaced, never removed (BR-DEDUP-003). An
 * inclusion shorter than twice its marker is left as it is: stripping it would not save tokens.
 */
export class FileDedupe {
  private readonly latest = new Map<string, InclusionLocation>();
  private readonly stale: InclusionLocation[] = [];

  constructor(
    private readonly journal: UndoJournal,
    private readonly workspaceRoot: string,
  ) {}

  /** Registers the inclusions of a human entry. */
  addHumanEntry(entry: HistoryEntry, entryIndex: number): void {
    // Indexed: `forEach` over a frozen array takes V8's slow path.
    const { blocks } = entry;
    for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
      const block = blocks[blockIndex] as ContentBlock;
      if (block.type !== 'text') continue;
      for (const inclusion of findFileInclusions(block)) {
        const path = normalizeToolPath(inclusion.path, this.workspaceRoot);
        const previous = this.latest.get(path);
        if (previous !== undefined) this.stale.push(previous);
        this.latest.set(path, { entryIndex, blockIndex, block, inclusion });
        if (this.journal.isOpen) {
          this.journal.record(() => {
            if (previous === undefined) {
              this.latest.delete(path);
              return;
            }
            this.stale.pop();
            this.latest.set(path, previous);
          });
        }
      }
    }
  }

  /** Adds the text edits that strip every stale inclusion its marker would make smaller. */
  collect(edits: DensityEdits): void {
    const byBlock = new Map<TextBlock, { location: InclusionLocation; inclusions: Set<FileInclusion> }>();
    for (const location of this.stale) {
      if (!isWorthStripping(location.inclusion)) continue;
      const existing = byBlock.get(location.block);
      if (existing === undefined) byBlock.set(location.block, { location, inclusions: new Set([location.inclusion]) });
      else existing.inclusions.add(location.inclusion);
    }
    for (const { location, inclusions } of byBlock.values()) {
      const text = stripFileInclusions(location.block, inclusions);
      edits.replaceBlock(location.entryIndex, location.blockIndex, { ...location.block, text }, 'file-deduplicated', inclusions.size);
    }
  }
}
