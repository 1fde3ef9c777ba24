import type { HistoryEntry, JsonValue, ToolCallBlock } from '@ctx/core';
import {
  classifyHistoryToolCalls,
  toolResultText,
  type ClassifiedToolCall,
  type FileAccess,
} from '@ctx/strategy-utils';
import { stableJson } from './stable-json.js';

/** A successful read of the file: the call's result is (part of) its content. */
export interface ReadEvidence {
  readonly kind: 'read';
  readonly entryIndex: number;
  readonly callId: string;
  readonly result: JsonValue;
  /** The result's text (`toolResultText`). */
  readonly text: string;
  readonly partial: boolean;
  /** Partial reads of the same range supersede each other; ranges come from the parameters. */
  readonly rangeKey: string;
}

/** A whole-file write (create, overwrite, delete): the call says what the file became. */
export interface WriteEvidence {
  readonly kind: 'write';
  readonly entryIndex: number;
  readonly call: ToolCallBlock;
  /** The written text, when the parameters hold it (`content`, `file_text`). */
  readonly content?: string;
}

/** A partial change (an edit, an append, a line insertion): the call says what changed. */
export interface EditEvidence {
  readonly kind: 'edit';
  readonly entryIndex: number;
  readonly call: ToolCallBlock;
}

/** One piece of what tells the model a file's latest content. */
export type FileEvidence = ReadEvidence | WriteEvidence | EditEvidence;

/**
 * The latest known state of one file that was read, as evidence found in a history.
 *
 * - `full`: the last full-content evidence — the last successful whole-file read, or the last whole-file write
 *   (create, overwrite, delete) after it. Undefined when the file was only ever read in part.
 * - `later`: what follows it — every partial change (edit) to the file, and the latest partial read of each range
 *   (the retention check needs those reads only after a change whose effect it cannot compute). Without `full`,
 *   the latest read of each range and the changes made after the first of those reads.
 */
export interface FileState {
  readonly path: string;
  readonly full?: ReadEvidence | WriteEvidence;
  readonly later: readonly (ReadEvidence | EditEvidence)[];
}

/** Error markers that mean the tool itself refused the change, so the file did not change. */
const refusedChangeMarkers: ReadonlySet<string> = new Set(['editor-error', 'edit-rejected']);

/**
 * Whether a write or edit call changed its files. Calls without a result count (conservatively) as applied. A tool
 * that reports an error did not change the file, except a shell command: its earlier parts (`sed -i … && make`)
 * may have changed it before the part that failed.
 */
function changedFiles({ semantics, response }: ClassifiedToolCall): boolean {
  if (response === undefined || response.outcome.outcome === 'success') return true;
  const marker = response.outcome.marker;
  return semantics.command !== undefined && (marker === undefined || !refusedChangeMarkers.has(marker));
}

function rangeKeyOf(access: FileAccess, call: ToolCallBlock): string {
  if (!access.partial) return 'whole';
  if (access.lineRange !== undefined) return `lines ${access.lineRange.start}-${access.lineRange.end ?? 'end'}`;
  // A partial read without a range (`tail -n 20`, a `pages` read) is only superseded by the very same call.
  return `call ${call.name} ${stableJson(call.parameters)}`;
}

function writtenContent(call: ToolCallBlock): string | undefined {
  const parameters = call.parameters;
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) return undefined;
  const record = parameters as { readonly [key: string]: JsonValue };
  for (const key of ['content', 'file_text']) {
    const value = record[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** Evidence of one path, updated call by call in history order. */
class FileStateTracker {
  wasRead = false;
  private full: ReadEvidence | WriteEvidence | undefined;
  private later: (ReadEvidence | EditEvidence)[] = [];

  constructor(readonly path: string) {}

  read(evidence: ReadEvidence): void {
    this.wasRead = true;
    if (!evidence.partial) {
      this.full = evidence;
      this.later = [];
      return;
    }
    this.later = this.later.filter((item) => item.kind !== 'read' || item.rangeKey !== evidence.rangeKey);
    this.later.push(evidence);
  }

  write(evidence: WriteEvidence): void {
    this.full = evidence;
    this.later = [];
  }

  edit(evidence: EditEvidence): void {
    this.later.push(evidence);
  }

  toState(): FileState {
    if (this.full !== undefined) return { path: this.path, full: this.full, later: this.later };
    // Only partial reads: changes made before the first remaining read are already visible in what it showed.
    const firstRead = this.later.findIndex((item) => item.kind === 'read');
    return { path: this.path, later: this.later.slice(Math.max(firstRead, 0)) };
  }
}

/**
 * The latest known state of every file read in a history (see {@link FileState}), using `classifyHistoryToolCalls`
 * from `@ctx/strategy-utils` for what each call reads and writes. A read counts when the call's kind is `read` and
 * its result is a success (the result is then the file's content, whole or in part); a call that reads several
 * files is evidence for each. A write or edit counts unless its tool reported an error (shell commands count even
 * then, since part of the command may have run). Files that were written but never read are not listed.
 *
 * @param history - The history to read the evidence from.
 * @param workspaceRoot - The directory relative paths resolve against.
 * @returns One state per file read, in order of each file's first appearance.
 */
export function listFileStates(history: readonly HistoryEntry[], workspaceRoot: string): FileState[] {
  const trackers = new Map<string, FileStateTracker>();
  const trackerFor = (path: string) => {
    let tracker = trackers.get(path);
    if (tracker === undefined) {
      tracker = new FileStateTracker(path);
      trackers.set(path, tracker);
    }
    return tracker;
  };

  for (const record of classifyHistoryToolCalls(history, { workspaceRoot })) {
    const { call, semantics, response, entryIndex } = record;
    // Reads first: a command that shows a file and then changes it (`cat a && sed -i … a`) read the old content.
    if (semantics.kind === 'read' && response?.outcome.outcome === 'success') {
      const result = response.block.result;
      const text = toolResultText(result);
      for (const access of semantics.reads) {
        trackerFor(access.path).read({
          kind: 'read',
          entryIndex: response.entryIndex,
          callId: call.id,
          result,
          text,
          partial: access.partial,
          rangeKey: rangeKeyOf(access, call),
        });
      }
    }
    if (semantics.writes.length === 0 || !changedFiles(record)) continue;
    for (const access of semantics.writes) {
      const tracker = trackerFor(access.path);
      if (access.partial) {
        tracker.edit({ kind: 'edit', entryIndex, call });
      } else {
        const content = writtenContent(call);
        tracker.write(content === undefined ? { kind: 'write', entryIndex, call } : { kind: 'write', entryIndex, call, content });
      }
    }
  }
  return [...trackers.values()].filter((tracker) => tracker.wasRead).map((tracker) => tracker.toState());
}
