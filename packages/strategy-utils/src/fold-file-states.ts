import type { HistoryEntry, JsonValue, ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import { classifyHistoryToolCalls, type ClassifiedToolCall, type ClassifyHistoryToolCallsOptions } from './classify-history-tool-calls.js';
import { applyEditReplacement, editReplacementsOf } from './edit-replacements.js';
import { formatReconstructedRead, readContentOf, reconstructedContentOf } from './read-content.js';
import { toolResultText } from './tool-result-text.js';

/** Options of {@link foldFileStates}. */
export interface FoldFileStatesOptions extends ClassifyHistoryToolCallsOptions {
  /** Recorded in the marks the fold leaves (`providerMetadata.ctx`), so a reader knows who rewrote the content. */
  readonly strategyName: string;
}

/** What {@link foldFileStates} did. */
export interface FileStateFolds {
  /** The history with the folds applied; entries that did not change are the same objects. */
  readonly history: readonly HistoryEntry[];
  /**
   * Reads (their result) and whole-file writes (their `content` parameter) rewritten into their file's current
   * content: new folds and folds brought up to date.
   */
  readonly foldedReads: number;
  /** Edit calls whose replacement text moved into a folded read. */
  readonly foldedEdits: number;
  /** Characters the folds saved (old text and parameters minus new). */
  readonly charactersSaved: number;
}

/** The text an edit's replacement strings become once the edit is part of a folded read. */
export const FOLDED_EDIT_MARKER = '⟨ applied in the read above ⟩';

const replacementKeys: ReadonlySet<string> = new Set(['old_string', 'new_string', 'old_str', 'new_str']);
/** Error markers that mean the tool refused the change, so the file did not change. */
const refusedChangeMarkers: ReadonlySet<string> = new Set(['editor-error', 'edit-rejected']);

type Marks = Readonly<Record<string, JsonValue>>;

function ctxMarks(block: ToolCallBlock | ToolResponseBlock): Marks | undefined {
  return block.providerMetadata?.['ctx'];
}

/** The call id of the read an edit was folded into, when it was. */
function foldedInto(call: ToolCallBlock): string | undefined {
  const value = ctxMarks(call)?.['foldedInto'];
  return typeof value === 'string' ? value : undefined;
}

/** A folded read's mark: the file and the last edit its content includes (`null`: only compacted). */
function foldMark(block: ToolCallBlock | ToolResponseBlock): { readonly through: string | null } | undefined {
  const value = ctxMarks(block)?.['fileState'];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const through = (value as Marks)['through'];
  return { through: typeof through === 'string' ? through : null };
}

/** The parameter a whole-file write holds its content in (`content`, `file_text`). */
function writtenKey(call: ToolCallBlock): string | undefined {
  const parameters = call.parameters;
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) return undefined;
  return ['content', 'file_text'].find((key) => typeof (parameters as Readonly<Record<string, JsonValue>>)[key] === 'string');
}

function writtenContent(call: ToolCallBlock): string | undefined {
  const key = writtenKey(call);
  return key === undefined ? undefined : ((call.parameters as Readonly<Record<string, JsonValue>>)[key] as string);
}

function foldMarkOfCall(call: ToolCallBlock): unknown {
  return ctxMarks(call)?.['fileState'];
}

function changedFiles({ semantics, response }: ClassifiedToolCall): boolean {
  if (response === undefined || response.outcome.outcome === 'success') return true;
  const marker = response.outcome.marker;
  return semantics.command !== undefined && (marker === undefined || !refusedChangeMarkers.has(marker));
}

/**
 * The parameters with each replacement's strings (`old_string` → the marker, `new_string` → empty) replaced, where
 * that is shorter; the characters that saves. A replacement shorter than the marker keeps its strings: a half-emptied
 * replacement would read as a different edit.
 */
function foldParameters(value: JsonValue): { value: JsonValue; saved: number } {
  if (Array.isArray(value)) {
    let saved = 0;
    const items = (value as readonly JsonValue[]).map((item) => {
      const folded = foldParameters(item);
      saved += folded.saved;
      return folded.value;
    });
    return { value: items, saved };
  }
  if (typeof value !== 'object' || value === null) return { value, saved: 0 };
  const source = value as Readonly<Record<string, JsonValue>>;
  const record: Record<string, JsonValue> = { ...source };
  let saved = 0;
  const strings = Object.entries(source).filter(([key, item]) => replacementKeys.has(key) && typeof item === 'string') as [string, string][];
  const length = strings.reduce((sum, [, item]) => sum + item.length, 0);
  if (strings.length > 0 && length > FOLDED_EDIT_MARKER.length) {
    for (const [key] of strings) record[key] = key.startsWith('old') ? FOLDED_EDIT_MARKER : '';
    saved += length - FOLDED_EDIT_MARKER.length;
  }
  const edits = source['edits'];
  if (Array.isArray(edits)) {
    const folded = foldParameters(edits);
    record['edits'] = folded.value;
    saved += folded.saved;
  }
  return { value: record, saved };
}

function withMarks<T extends ToolCallBlock | ToolResponseBlock>(block: T, marks: Marks): T {
  return { ...block, providerMetadata: { ...block.providerMetadata, ctx: { ...ctxMarks(block), ...marks } } };
}

/** A base block rewritten to hold the file's current content. */
interface BaseFold {
  readonly entryIndex: number;
  readonly blockIndex: number;
  readonly block: ToolCallBlock | ToolResponseBlock;
  /** The last edit the content includes; `null` when none (a read only compacted). */
  readonly through: string | null;
  /** Characters the base's own rewrite saves (negative when the edits made it longer). */
  readonly saved: number;
  /** The base was folded before: this brings it up to date. */
  readonly refold: boolean;
}

/** The content after applying the edits in order, or undefined when one does not apply cleanly. */
function applyEdits(content: string | undefined, edits: readonly ClassifiedToolCall[]): string | undefined {
  let current = content;
  for (const edit of edits) {
    for (const replacement of editReplacementsOf(edit.call) ?? []) {
      current = current === undefined ? undefined : applyEditReplacement(current, replacement);
    }
  }
  return current;
}

function planReadFold(path: string, track: FileTrack): BaseFold | undefined {
  const response = track.read.response;
  if (response === undefined) return undefined;
  const block = response.block;
  const mark = foldMark(block);
  if (mark !== undefined && track.pending.length === 0) return undefined;
  const text = toolResultText(block.result);
  const content = applyEdits(mark === undefined ? readContentOf(text) : reconstructedContentOf(text), track.pending);
  if (content === undefined) return undefined;
  const through = track.pending.at(-1)?.call.id ?? mark?.through ?? null;
  const result =
    through === null
      ? `[Rewritten by ctx: the content of ${path} as this call read it, line numbers removed; not the tool's original output]\n${content}`
      : formatReconstructedRead(path, content, { partial: false });
  return {
    entryIndex: response.entryIndex,
    blockIndex: response.blockIndex,
    block: { ...block, result },
    through,
    saved: text.length - result.length,
    refold: mark !== undefined,
  };
}

/** A whole-file write followed by edits: its `content` parameter becomes the content after them. */
function planWriteFold(path: string, track: FileTrack): BaseFold | undefined {
  if (track.pending.length === 0) return undefined;
  const call = track.read.call;
  const written = writtenContent(call);
  const content = applyEdits(written, track.pending);
  if (written === undefined || content === undefined) return undefined;
  const parameters = { ...(call.parameters as Readonly<Record<string, JsonValue>>) };
  parameters[writtenKey(call) as string] = content;
  return {
    entryIndex: track.read.entryIndex,
    blockIndex: track.read.blockIndex,
    block: { ...call, parameters },
    through: track.pending.at(-1)?.call.id ?? null,
    saved: written.length - content.length,
    refold: foldMarkOfCall(call) !== undefined,
  };
}

/** One file's latest whole read or whole write (the base) and what changed the file after it. */
interface FileTrack {
  /** A whole-file read whose result shows the content, or a whole-file write whose `content` parameter holds it. */
  readonly base: 'read' | 'write';
  readonly read: ClassifiedToolCall;
  /** Edits after the read that are not folded yet. */
  readonly pending: ClassifiedToolCall[];
  /** A change after the read whose effect cannot be computed (a shell edit, a line insertion): no fold. */
  unknown: boolean;
}

/**
 * Rewrites each file's latest whole-file read (or whole-file write) into the file's current content, so the latest
 * state of every file the agent read or edited is in context exactly once and costs as little as it can:
 *
 * - the read's result becomes the content without the read tool's line numbers and the harness's
 *   `<system-reminder>`s, under a one-line header saying ctx rewrote it; a write's `content` (`file_text`)
 *   parameter becomes the content with the later edits applied;
 * - every later edit whose old → new replacement applies cleanly is applied to it, and the edit call's replacement
 *   strings are replaced by {@link FOLDED_EDIT_MARKER} (the call keeps its file path and stays paired with its
 *   result): the change moved into the read.
 *
 * A read is not the base when a whole-file write came after it (the write is the file's state); a file is left alone when a change
 * after the read cannot be computed (a shell `sed -i`, an insertion, an edit whose old text is missing or
 * ambiguous), when the read was partial or read several files, or when the fold would not save characters. Folds
 * are marked in `providerMetadata.ctx` (`fileState` on the read, `foldedInto` on the edits), so calling it again on
 * its own output changes nothing, and after new edits it folds only those. Pure: the input is not modified.
 *
 * @param history - The history.
 * @param options - `workspaceRoot`, an optional tool-semantics `registry`, and the `strategyName` to record.
 * @returns The new history and counts.
 * @example
 * ```ts
 * const { history: folded, foldedReads } = foldFileStates(history, { workspaceRoot: '/repo', strategyName: 'my-strategy' });
 * ```
 */
export function foldFileStates(history: readonly HistoryEntry[], options: FoldFileStatesOptions): FileStateFolds {
  const tracks = new Map<string, FileTrack>();
  for (const record of classifyHistoryToolCalls(history, options)) {
    const { semantics, response, call } = record;
    const [only] = semantics.reads;
    if (
      semantics.kind === 'read' &&
      response?.outcome.outcome === 'success' &&
      semantics.globs.length === 0 &&
      semantics.reads.length === 1 &&
      only !== undefined &&
      !only.partial
    ) {
      tracks.set(only.path, { base: 'read', read: record, pending: [], unknown: false });
    }
    if (semantics.writes.length === 0 || !changedFiles(record)) continue;
    for (const access of semantics.writes) {
      const track = tracks.get(access.path);
      if (track === undefined && access.partial) continue;
      if (!access.partial) {
        tracks.delete(access.path);
        if (semantics.command === undefined && semantics.writes.length === 1 && typeof writtenContent(call) === 'string') {
          tracks.set(access.path, { base: 'write', read: record, pending: [], unknown: false });
        }
      } else if (track === undefined || foldedInto(call) === track.read.call.id) {
        // Already part of the base's content.
      } else if (semantics.command !== undefined || semantics.writes.length > 1 || editReplacementsOf(call) === undefined) {
        track.unknown = true;
      } else {
        track.pending.push(record);
      }
    }
  }

  const replaced = new Map<number, Map<number, ToolCallBlock | ToolResponseBlock>>();
  const replace = (entryIndex: number, blockIndex: number, block: ToolCallBlock | ToolResponseBlock) => {
    let blocks = replaced.get(entryIndex);
    if (blocks === undefined) {
      blocks = new Map();
      replaced.set(entryIndex, blocks);
    }
    blocks.set(blockIndex, block);
  };
  let foldedReads = 0;
  let foldedEdits = 0;
  let charactersSaved = 0;
  for (const [path, track] of tracks) {
    if (track.unknown) continue;
    const fold = track.base === 'read' ? planReadFold(path, track) : planWriteFold(path, track);
    if (fold === undefined) continue;
    const folds = track.pending.map((edit) => ({ edit, parameters: foldParameters(edit.call.parameters) }));
    const saved = fold.saved + folds.reduce((sum, item) => sum + item.parameters.saved, 0);
    // A new fold must save; bringing a fold up to date may also break even (a short edit's strings stay as they are).
    if (saved < 0 || (saved === 0 && !fold.refold)) continue;
    replace(fold.entryIndex, fold.blockIndex, withMarks(fold.block, { fileState: { path, through: fold.through }, foldedBy: options.strategyName }));
    for (const { edit, parameters } of folds) {
      replace(edit.entryIndex, edit.blockIndex, withMarks({ ...edit.call, parameters: parameters.value }, { foldedInto: track.read.call.id }));
    }
    foldedReads += 1;
    foldedEdits += folds.length;
    charactersSaved += saved;
  }
  if (replaced.size === 0) return { history, foldedReads: 0, foldedEdits: 0, charactersSaved: 0 };
  const next = history.map((entry, entryIndex) => {
    const blocks = replaced.get(entryIndex);
    if (blocks === undefined) return entry;
    return { ...entry, blocks: entry.blocks.map((block, blockIndex) => blocks.get(blockIndex) ?? block) };
  });
  return { history: next, foldedReads, foldedEdits, charactersSaved };
}
