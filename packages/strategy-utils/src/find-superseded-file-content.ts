import type { HistoryEntry } from '@ctx/core';
import { classifyHistoryToolCalls, type ClassifiedToolCall, type ClassifyHistoryToolCallsOptions } from './classify-history-tool-calls.js';
import type { FileAccess } from './tool-call-semantics.js';

/**
 * File content in a history that a later event made out of date (see {@link findSupersededFileContent}), by tool
 * call id. What is not listed is part of some file's latest known state, or not file content at all.
 */
export interface SupersededFileContent {
  /** Calls whose result shows file content that a later read or write of the same content replaced. */
  readonly results: ReadonlySet<string>;
  /** Write and edit calls whose parameters carry file content that a later whole-file read or write replaced. */
  readonly parameters: ReadonlySet<string>;
}

/** Error markers that mean the tool refused the change, so the file did not change. */
const refusedChangeMarkers: ReadonlySet<string> = new Set(['editor-error', 'edit-rejected']);

function changedFiles({ semantics, response }: ClassifiedToolCall): boolean {
  if (response === undefined || response.outcome.outcome === 'success') return true;
  const marker = response.outcome.marker;
  // A shell command may have changed files before the part that failed (`sed -i … && make`).
  return semantics.command !== undefined && (marker === undefined || !refusedChangeMarkers.has(marker));
}

function rangeKey(access: FileAccess, record: ClassifiedToolCall): string {
  if (!access.partial) return 'whole';
  if (access.lineRange !== undefined) return `lines ${access.lineRange.start}-${access.lineRange.end ?? 'end'}`;
  // A partial read without a line range (`tail -n 20`) is only repeated by the very same call.
  return `call ${record.call.name} ${JSON.stringify(record.call.parameters)}`;
}

/** Events of one file, newest last: what is still needed of it. */
interface FileTrack {
  /** Position (in call order) of the last whole-file read or write. */
  lastWhole: number;
  /** The latest read of each range key: its position. */
  readonly latestRead: Map<string, number>;
}

/**
 * Finds the file content a later event superseded, so a strategy can shorten it without losing any file's latest
 * known state:
 *
 * - a successful **read** result is superseded when, for every file it read, a later successful whole-file read
 *   or whole-file write exists, or a later read of the same range (the later one shows the same lines, newer);
 * - the parameters of a **write or edit** (the content it wrote, the text it replaced) are superseded when a later
 *   successful whole-file read or whole-file write of every file it changed exists — the later one shows the result.
 *
 * What stays is the latest whole-file read or write of each file, the edits after it and the latest read of each
 * range — the same evidence `@ctx/retention` counts as a file's latest state. Reads that list or search (globs)
 * and failed calls are never listed. Linear in the number of tool calls.
 *
 * @param history - The canonical history.
 * @param options - `workspaceRoot` and an optional tool-semantics `registry`, as for {@link classifyHistoryToolCalls}.
 * @returns The superseded results and parameters, by call id.
 * @example
 * ```ts
 * const superseded = findSupersededFileContent(history, { workspaceRoot: '/repo' });
 * if (superseded.results.has(call.id)) console.log('a later read shows this file newer');
 * ```
 */
export function findSupersededFileContent(
  history: readonly HistoryEntry[],
  options: ClassifyHistoryToolCallsOptions,
): SupersededFileContent {
  const records = classifyHistoryToolCalls(history, options);
  const tracks = new Map<string, FileTrack>();
  const trackOf = (path: string): FileTrack => {
    let track = tracks.get(path);
    if (track === undefined) {
      track = { lastWhole: -1, latestRead: new Map() };
      tracks.set(path, track);
    }
    return track;
  };
  // Pass 1: for each file, the position of its last whole state and of the latest read of each range.
  records.forEach((record, position) => {
    const { semantics, response } = record;
    if (semantics.kind === 'read' && response?.outcome.outcome === 'success' && semantics.globs.length === 0) {
      for (const access of semantics.reads) {
        const track = trackOf(access.path);
        if (!access.partial) track.lastWhole = position;
        track.latestRead.set(rangeKey(access, record), position);
      }
    }
    if (semantics.writes.length > 0 && changedFiles(record)) {
      for (const access of semantics.writes) {
        if (!access.partial) trackOf(access.path).lastWhole = position;
      }
    }
  });
  // Pass 2: what a later event replaced.
  const results = new Set<string>();
  const parameters = new Set<string>();
  records.forEach((record, position) => {
    const { semantics, response, call } = record;
    if (semantics.kind === 'read' && response?.outcome.outcome === 'success' && semantics.globs.length === 0 && semantics.reads.length > 0) {
      const replaced = semantics.reads.every((access) => {
        const track = tracks.get(access.path) as FileTrack;
        return track.lastWhole > position || (track.latestRead.get(rangeKey(access, record)) ?? position) > position;
      });
      if (replaced) results.add(call.id);
    }
    if (semantics.writes.length > 0 && semantics.command === undefined) {
      const replaced = semantics.writes.every((access) => (tracks.get(access.path)?.lastWhole ?? -1) > position);
      if (replaced) parameters.add(call.id);
    }
  });
  return { results, parameters };
}
