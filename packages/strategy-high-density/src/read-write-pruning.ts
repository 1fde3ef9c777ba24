import type { HistoryEntry, ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import {
  applyEditReplacement,
  editReplacementsOf,
  formatReconstructedRead,
  readContentOf,
  reconstructedContentOf,
} from '@ctx/strategy-utils';
import type { DensityEdits } from './density-edits.js';
import { withGeneratedResult } from './generated-marker.js';
import { responseText } from './tool-call-facts.js';
import type { UndoJournal } from './undo-journal.js';

/** Where a response sits in the history. */
export interface ResponseLocation {
  readonly entryIndex: number;
  readonly blockIndex: number;
  readonly block: ToolResponseBlock;
}

/** A successful file read the phase may prune: a call whose result is file content (semantics kind `read`). */
export interface ReadRecord {
  /** Position of the call among all calls of the history. */
  readonly order: number;
  readonly callEntryIndex: number;
  readonly callBlockIndex: number;
  readonly call: ToolCallBlock;
  /** Every response to the call in its turn; the first one answers it. Removed together with the call. */
  readonly responses: readonly ResponseLocation[];
  /** The distinct files read (normalized absolute paths). */
  readonly paths: readonly string[];
  /** True when the call read part of the file (a line range, a window). */
  readonly partial: boolean;
  /** The result shows the file (not a recency pointer or a summary), so a fold can start from it. */
  readonly showsContent: boolean;
  /** The result is a read this phase already folded (its content includes edits up to a fold point). */
  readonly reconstructed: boolean;
  /** Files of `paths` not written since the read. At 0 the read is stale. */
  remaining: number;
  stale: boolean;
  /** For a folded read: the id of the last edit its content includes, until the fold passes that edit. */
  awaitingFoldPoint: string | undefined;
  /** Edits after this order are not in the read's content yet. */
  baseOrder: number;
  /** For a folded read: the length of the tool output the first fold started from. */
  readonly originalLength: number | undefined;
}

/** A call that changed a file. */
export interface WriteRecord {
  readonly order: number;
  readonly call: ToolCallBlock;
  /** True for an edit (part of the file), false for a whole-file write (create, overwrite, delete). */
  readonly partial: boolean;
}

interface Fold {
  readonly text: string;
  readonly foldedThrough: string;
  readonly originalLength: number;
}

/**
 * Spec 000 §3a, READ→WRITE pair pruning, as state that grows call by call: a read is stale once every file it read
 * has been written after it (BR-PRUNE-001, EC-011, EC-012, EC-015; a read of a line range as soon as a write touches
 * the file); reads after the latest write stay (BR-PRUNE-003, EC-010). Stale reads lose their call and responses
 * (BR-PRUNE-002, BR-PRUNE-004) — or, with `foldEdits`, the latest one is rewritten into the file's content after
 * the edits.
 */
export class ReadWritePruning {
  /** Reads not stale yet, per file. */
  private readonly pending = new Map<string, ReadRecord[]>();
  /** Every change per file, for folding. */
  private readonly writes = new Map<string, WriteRecord[]>();
  private readonly staleReads: ReadRecord[] = [];

  constructor(
    private readonly journal: UndoJournal,
    private readonly tracksWrites: boolean,
  ) {}

  /** Registers a read: it waits for a write to each of its files. */
  addRead(record: ReadRecord): void {
    for (const path of record.paths) {
      let list = this.pending.get(path);
      if (list === undefined) {
        list = [];
        this.pending.set(path, list);
        if (this.journal.isOpen) this.journal.record(() => this.pending.delete(path));
      }
      list.push(record);
      if (this.journal.isOpen) {
        const reads = list;
        this.journal.record(() => reads.pop());
      }
    }
  }

  /** Registers a change of `path`: the reads waiting on it are stale once all their files were written. */
  addWrite(path: string, write: WriteRecord): void {
    const list = this.pending.get(path);
    if (list !== undefined && list.length > 0) {
      const stillPending: ReadRecord[] = [];
      for (const read of list) {
        if (read.awaitingFoldPoint !== undefined) {
          // Edits up to the fold point are already in a folded read's content.
          if (write.call.id === read.awaitingFoldPoint) this.passFoldPoint(read, write.order);
          stillPending.push(read);
          continue;
        }
        this.markWritten(read);
      }
      this.pending.set(path, stillPending);
      if (this.journal.isOpen) this.journal.record(() => this.pending.set(path, list));
    }
    if (!this.tracksWrites) return;
    let writes = this.writes.get(path);
    if (writes === undefined) {
      writes = [];
      this.writes.set(path, writes);
      if (this.journal.isOpen) this.journal.record(() => this.writes.delete(path));
    }
    writes.push(write);
    if (this.journal.isOpen) {
      const list = writes;
      this.journal.record(() => list.pop());
    }
  }

  /**
   * Adds the edits for the stale reads: removal of call and responses, or with `foldEdits` a fold of the latest read
   * of each file where the edits apply cleanly.
   *
   * @returns The reads removed, so later phases skip their responses (EC-040).
   */
  collect(edits: DensityEdits, history: readonly HistoryEntry[], options: { readonly foldEdits: boolean }): ReadonlySet<ReadRecord> {
    const removed = new Set<ReadRecord>();
    if (this.staleReads.length === 0) return removed;
    const folds = options.foldEdits ? this.chooseFolds(history) : new Map<ReadRecord, Fold>();
    for (const read of this.staleReads) {
      const fold = folds.get(read);
      const answer = read.responses[0] as ResponseLocation;
      if (fold !== undefined) {
        const block = withGeneratedResult(answer.block, fold.text, {
          kind: 'folded-read',
          foldedThrough: fold.foldedThrough,
          originalLength: fold.originalLength,
        });
        edits.replaceBlock(answer.entryIndex, answer.blockIndex, block, 'read-folded');
        continue;
      }
      removed.add(read);
      this.removeRead(edits, read);
    }
    return removed;
  }

  /** Removes a stale read's call and responses (BR-PRUNE-002); also how a folded read is dropped later. */
  removeRead(edits: DensityEdits, read: ReadRecord): void {
    edits.removeBlock(read.callEntryIndex, read.callBlockIndex, 'read-write-pruned');
    for (const response of read.responses) edits.removeBlock(response.entryIndex, response.blockIndex, 'read-write-pruned');
  }

  private markWritten(read: ReadRecord): void {
    read.remaining -= 1;
    if (read.remaining === 0) {
      read.stale = true;
      this.staleReads.push(read);
    }
    if (this.journal.isOpen) {
      this.journal.record(() => {
        if (read.stale) this.staleReads.pop();
        read.stale = false;
        read.remaining += 1;
      });
    }
  }

  private passFoldPoint(read: ReadRecord, order: number): void {
    const { awaitingFoldPoint, baseOrder } = read;
    read.awaitingFoldPoint = undefined;
    read.baseOrder = order;
    if (this.journal.isOpen) {
      this.journal.record(() => {
        read.awaitingFoldPoint = awaitingFoldPoint;
        read.baseOrder = baseOrder;
      });
    }
  }

  /**
   * Per file, the one stale read to fold: the latest whole-file read with no whole-file write after it (else the
   * latest partial one), unless a whole-file read after the last change already shows the file. Its content with
   * every later edit's replacements applied must succeed and be no longer than the tool output the read started as,
   * or the file falls back to spec 000's removal.
   */
  private chooseFolds(history: readonly HistoryEntry[]): Map<ReadRecord, Fold> {
    const folds = new Map<ReadRecord, Fold>();
    const byPath = new Map<string, ReadRecord[]>();
    for (const read of this.staleReads) {
      if (read.paths.length !== 1 || !read.showsContent) continue;
      const path = read.paths[0] as string;
      const reads = byPath.get(path);
      if (reads === undefined) byPath.set(path, [read]);
      else reads.push(read);
    }
    for (const [path, reads] of byPath) {
      const latestShown = (this.pending.get(path) ?? []).some(
        (read) => !read.partial && read.showsContent && read.awaitingFoldPoint === undefined && read.paths.length === 1,
      );
      if (latestShown) continue;
      const writes = this.writes.get(path) ?? [];
      let lastWholeWrite = -1;
      for (const write of writes) if (!write.partial) lastWholeWrite = write.order;
      const candidates = reads.filter((read) => read.baseOrder > lastWholeWrite).sort((first, second) => first.order - second.order);
      const whole = candidates.filter((read) => !read.partial);
      const chosen = whole.at(-1) ?? candidates.at(-1);
      if (chosen === undefined) continue;
      const fold = this.foldRead(chosen, path, writes, history);
      if (fold !== undefined) folds.set(chosen, fold);
    }
    return folds;
  }

  private foldRead(read: ReadRecord, path: string, writes: readonly WriteRecord[], history: readonly HistoryEntry[]): Fold | undefined {
    const answer = read.responses[0] as ResponseLocation;
    // The block as it is now in the history: its result is what the fold starts from.
    const block = (history[answer.entryIndex] as HistoryEntry).blocks[answer.blockIndex] as ToolResponseBlock;
    const text = responseText(block);
    let content = read.reconstructed ? reconstructedContentOf(text) : readContentOf(text);
    const later = writes.filter((write) => write.order > read.baseOrder);
    if (later.length === 0) return undefined;
    for (const write of later) {
      const replacements = editReplacementsOf(write.call);
      if (replacements === undefined) return undefined;
      for (const replacement of replacements) {
        const next = applyEditReplacement(content, replacement);
        if (next === undefined) return undefined;
        content = next;
      }
    }
    const folded = formatReconstructedRead(path, content, { partial: read.partial });
    // A fold is never longer than the tool output it started from (edits that added more than the line numbers and
    // reminders it drops): then spec 000's removal applies, so folding never grows a history past what the agent
    // recorded.
    const originalLength = read.originalLength ?? text.length;
    if (folded.length > originalLength) return undefined;
    return { text: folded, foldedThrough: (later.at(-1) as WriteRecord).call.id, originalLength };
  }
}
