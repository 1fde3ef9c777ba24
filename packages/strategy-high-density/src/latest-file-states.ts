import type { ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import type { FileAccess, ToolCallSemantics, ToolResultClassification } from '@ctx/strategy-utils';

/** Error markers that mean the tool itself refused the change, so the file did not change. */
const refusedChangeMarkers: ReadonlySet<string> = new Set(['editor-error', 'edit-rejected']);

/**
 * Whether a write or edit changed its files: a success does; a reported error does not, except for a shell command
 * (its earlier parts, `sed -i … && make`, may have run before the part that failed).
 */
function changedFiles(semantics: ToolCallSemantics, outcome: ToolResultClassification): boolean {
  if (outcome.outcome === 'success') return true;
  return semantics.command !== undefined && (outcome.marker === undefined || !refusedChangeMarkers.has(outcome.marker));
}

/** Ranged reads of the same lines supersede each other; a partial read without a range only supersedes itself. */
function rangeKeyOf(access: FileAccess, call: ToolCallBlock): string {
  if (access.lineRange !== undefined) return `lines ${access.lineRange.start}-${access.lineRange.end ?? 'end'}`;
  return `call ${call.id}`;
}

/** What tells the model one file's latest content, updated call by call in history order. */
class FileStateTracker {
  /** The last successful whole-file read, unless a whole-file write came after it. */
  private full: ToolResponseBlock | undefined;
  /** True once a whole-file read or write is known: partial reads then matter only after a change. */
  private hasFull = false;
  private changedSinceFull = false;
  /** The latest partial read of each range that still matters. */
  private partial = new Map<string, ToolResponseBlock>();

  read(response: ToolResponseBlock, access: FileAccess, call: ToolCallBlock): void {
    if (!access.partial) {
      this.full = response;
      this.hasFull = true;
      this.changedSinceFull = false;
      this.partial = new Map();
      return;
    }
    // Before any change, a partial read shows nothing a whole-file read does not.
    if (this.hasFull && !this.changedSinceFull) return;
    const key = rangeKeyOf(access, call);
    this.partial.delete(key);
    this.partial.set(key, response);
  }

  write(access: FileAccess): void {
    if (access.partial) {
      this.changedSinceFull = true;
      return;
    }
    // The call itself (never summarized) now says what the file is.
    this.full = undefined;
    this.hasFull = true;
    this.changedSinceFull = false;
    this.partial = new Map();
  }

  holders(): ToolResponseBlock[] {
    return this.full === undefined ? [...this.partial.values()] : [this.full, ...this.partial.values()];
  }
}

/**
 * The tool results that hold the latest state of a file — the notion `@ctx/retention` measures as "latest file
 * state": for each file, the last successful whole-file read (unless a whole-file write followed it: the write's
 * call, which is never summarized, then says what the file is), plus the latest partial read of each line range
 * made after a change to the file (or, for a file only ever read in part, the latest read of each range). Edits are
 * calls, so they stay. With `foldEdits` the folded read is the file's last whole-file read, so it is the holder.
 *
 * Feed it every call with its response in history order ({@link LatestFileStates.record}), then ask for the
 * holders ({@link LatestFileStates.holders}).
 */
export class LatestFileStates {
  private readonly files = new Map<string, FileStateTracker>();

  private trackerFor(path: string): FileStateTracker {
    let tracker = this.files.get(path);
    if (tracker === undefined) {
      tracker = new FileStateTracker();
      this.files.set(path, tracker);
    }
    return tracker;
  }

  /**
   * Records one answered call.
   *
   * @param call - The call.
   * @param semantics - What it reads and writes.
   * @param response - Its response.
   * @param outcome - Whether the response reports an error.
   */
  record(call: ToolCallBlock, semantics: ToolCallSemantics, response: ToolResponseBlock, outcome: ToolResultClassification): void {
    // Reads first: a command that shows a file and then changes it (`cat a && sed -i … a`) read the old content.
    if (semantics.kind === 'read' && outcome.outcome === 'success') {
      for (const access of semantics.reads) this.trackerFor(access.path).read(response, access, call);
    }
    if (semantics.writes.length === 0 || !changedFiles(semantics, outcome)) return;
    for (const access of semantics.writes) this.trackerFor(access.path).write(access);
  }

  /**
   * The responses holding a latest file state, each with the files whose state it holds.
   *
   * @returns Response block → paths.
   */
  holders(): Map<ToolResponseBlock, string[]> {
    const holders = new Map<ToolResponseBlock, string[]>();
    for (const [path, tracker] of this.files) {
      for (const response of tracker.holders()) {
        const paths = holders.get(response) ?? [];
        paths.push(path);
        holders.set(response, paths);
      }
    }
    return holders;
  }
}
