import { noteComposedText, type ContentBlock, type HistoryEntry, type JsonValue, type TextPiece, type ToolCallBlock } from '@ctx/core';
import {
  classifyRememberedToolCall,
  classifyToolResult,
  isValidatedEntry,
  toValidatedEntry,
  type ToolCallSemantics,
} from '@ctx/strategy-utils';
import { hashJson, hashLines } from './content-hash.js';
import { describeSourceCall, type SourceDescription } from './describe-source-call.js';
import { findLineRuns, type LineRun } from './find-line-runs.js';
import { createLineIndex, type IndexedSource, type LineIndex } from './line-index.js';
import type { LosslessSettings } from './lossless-settings.js';
import { withLosslessRecord, type LineReference, type LosslessRecord } from './lossless-record.js';
import { parseNumberedLine } from './numbered-line.js';
import { readRecordOnce } from './read-record-once.js';
import { rebuildReferencedLines } from './rebuild-referenced-lines.js';
import { formatReferenceMarker, type MarkerDescription, type MarkerLineRange } from './reference-marker.js';
import { leafPathKey, listTextLeaves, replaceTextLeaf, type LeafPath, type TextLeaf } from './text-leaves.js';

/** What a lossless pass did, per operation (spec 004 FR-LC-001..004), and what it saved. */
export interface LosslessCounts {
  /** FR-LC-001: reads whose whole content repeats an earlier read, now one reference. */
  readonly fileReadsDeduplicated: number;
  /** FR-LC-002: other results identical to an earlier one, now one reference. */
  readonly toolResultsConsolidated: number;
  /** FR-LC-003: runs of lines shown earlier (overlapping ranges, unchanged parts of changed output). */
  readonly lineRangesReferenced: number;
  /** FR-LC-004: superseded todo lists and repeated status blocks. */
  readonly obsoleteStatesRemoved: number;
  /** Characters the pass removed from what is sent to the model (markers subtracted). */
  readonly charactersSaved: number;
}

/** Options of {@link planReferences}. */
export interface PlanReferencesOptions {
  readonly settings: LosslessSettings;
  /** Directory relative paths in tool calls resolve against (for naming files in markers). */
  readonly workspaceRoot: string;
}

/** The rewritten entries of a history and what was done. */
export interface ReferencePlan {
  /** Index → the entry with references in place of repeated lines. Only tool entries, only new ones. */
  readonly replacements: ReadonlyMap<number, HistoryEntry>;
  readonly counts: LosslessCounts;
  /** `kind:id` of every block some reference points at (they must stay visible). */
  readonly referencedSources: ReadonlySet<string>;
}

// Occurrences of a line tried as the start of a run: enough to find the newest copies of a file, bounded so that
// lines repeated everywhere (`import os`) cost constant time.
const maximumCandidates = 16;
const reminderStart = '<system-reminder>';
const reminderEnd = '</system-reminder>';

/** {@link LosslessCounts}, writable. */
export type MutableCounts = { -readonly [Key in keyof LosslessCounts]: number };

/** The block whose result (`source: 'result'`) or parameters (`source: 'call'`) are planned. */
interface PlanTarget {
  readonly source: 'result' | 'call';
  /** The call id. */
  readonly id: string;
  readonly entryIndex: number;
  readonly blockIndex: number;
  readonly call: ToolCallBlock | undefined;
  /** Whether the block may be rewritten; asked only when it has runs worth a reference. */
  readonly rewritable: () => boolean;
  /**
   * Trailing non-blank lines of each string that stay verbatim (an error result's own report of what failed), 0
   * for none.
   */
  readonly keptTailLines: number;
}

interface PlannedLeaf {
  readonly leaf: TextLeaf;
  readonly lines: readonly string[];
  /** The lines' contents as ids of the planner's line index. */
  readonly ids: readonly number[];
  readonly runs: readonly LineRun[];
}

/** Which counter a marker kind adds to. */
function countKey(kind: MarkerDescription['kind']): keyof Omit<MutableCounts, 'charactersSaved'> {
  switch (kind) {
    case 'repeated-file':
      return 'fileReadsDeduplicated';
    case 'consolidated':
      return 'toolResultsConsolidated';
    case 'repeated-status':
    case 'superseded-todos':
      return 'obsoleteStatesRemoved';
    case 'lines':
    case 'same-output':
      return 'lineRangesReferenced';
  }
}

/**
 * The position of the first of the last `count` non-blank lines (0 when there are fewer): where an output reports
 * how it ended.
 */
function findTailStart(lines: readonly string[], count: number): number {
  let seen = 0;
  for (let line = lines.length - 1; line >= 0; line--) {
    if ((lines[line] as string).trim() === '') continue;
    seen++;
    if (seen === count) return line;
  }
  return 0;
}

/** Characters of lines `from … to − 1` joined by line breaks (−1 when there are none). */
function textLength(lines: readonly string[], from: number, to: number): number {
  let length = -1;
  for (let line = from; line < to; line++) length += (lines[line] as string).length + 1;
  return length;
}

function displayRange(lines: readonly (string | undefined)[], from: number, count: number): MarkerLineRange {
  const first = parseNumberedLine(lines[from] ?? '').number;
  const last = parseNumberedLine(lines[from + count - 1] ?? '').number;
  return first !== undefined && last !== undefined
    ? { first, last, numbered: true }
    : { first: from + 1, last: from + count, numbered: false };
}

/** What planning one entry gave: its rewritten form, if any, and what that rewrite did. */
export interface EntryPlan {
  /** The entry with references in place of repeated lines; undefined when nothing in it was rewritten. */
  readonly replacement: HistoryEntry | undefined;
  /** What rewriting this entry did (all zero when it was not rewritten). */
  readonly counts: LosslessCounts;
}

/**
 * Plans a history entry by entry, in order, keeping what it learned (the line index of everything shown so far):
 * the state {@link planReferences} builds in its single pass, kept so that entries appended later cost only what
 * they hold.
 */
export interface ReferencePlanner {
  /**
   * Plans the next entry: indexes its lines and rewrites the runs that repeat lines shown before it.
   *
   * @param entry - The entry at `entryIndex`; entries must be planned in order, each once.
   * @param entryIndex - Its position in the history.
   * @param inSignedTurn - Whether it belongs to an assistant turn with signed or redacted thinking (its tool calls
   *   are then never rewritten).
   * @throws Error when `entryIndex` is not the next entry (the number of entries planned so far).
   */
  planEntry(entry: HistoryEntry, entryIndex: number, inSignedTurn: boolean): EntryPlan;
  /** `kind:id` of every block some reference of the entries planned so far points at; grows as entries are planned. */
  readonly referencedSources: ReadonlySet<string>;
  /**
   * Puts the state back as it was before the entry at `entryIndex` was planned, as if it and every entry after it had
   * not been: the next entry planned is `entryIndex`. Costs what undoing those entries costs, not the history.
   *
   * @throws Error when fewer than `entryIndex` entries were planned.
   */
  rollbackTo(entryIndex: number): void;
}

const zeroCounts: LosslessCounts = Object.freeze({
  fileReadsDeduplicated: 0,
  toolResultsConsolidated: 0,
  lineRangesReferenced: 0,
  obsoleteStatesRemoved: 0,
  charactersSaved: 0,
});

/**
 * Whether each entry of `history[from..]` is an `ai` entry of an assistant turn (consecutive `ai` entries) holding
 * signed or redacted thinking, as far as `history` goes: Anthropic wants such a turn back as it was, so its tool
 * calls are never rewritten.
 *
 * @param history - The history.
 * @param from - The first entry asked about; the scan starts at the turn holding it.
 * @returns One flag per entry of `history[from..]`.
 */
export function findSignedTurnEntries(history: readonly HistoryEntry[], from = 0): boolean[] {
  const flags = new Array<boolean>(Math.max(0, history.length - from)).fill(false);
  let start = from;
  while (start > 0 && history[start - 1]?.speaker === 'ai') start--;
  let turnStart = -1;
  let signed = false;
  const close = (end: number) => {
    if (signed) for (let entry = Math.max(turnStart, from); entry < end; entry++) flags[entry - from] = true;
    turnStart = -1;
    signed = false;
  };
  for (let entryIndex = start; entryIndex < history.length; entryIndex++) {
    const entry = history[entryIndex] as HistoryEntry;
    if (entry.speaker !== 'ai') {
      if (turnStart !== -1) close(entryIndex);
      continue;
    }
    if (turnStart === -1) turnStart = entryIndex;
    signed ||= isSignedEntry(entry);
  }
  if (turnStart !== -1) close(history.length);
  return flags;
}

/**
 * Whether an entry holds signed or redacted thinking.
 *
 * @param entry - An entry.
 * @returns True for an entry whose turn goes back to the provider unchanged.
 */
export function isSignedEntry(entry: HistoryEntry): boolean {
  return entry.blocks.some((block) => block.type === 'thinking' && (block.signature !== undefined || block.redacted === true));
}

/**
 * Plans the references of a history (spec 004 FR-LC-001..003, and FR-LC-004's repeated status blocks): walks the
 * history once, indexing every line shown to the model — tool results, and the parameters of tool calls, as they
 * originally were — and replaces each run of lines in a new tool result (or call) that repeats lines shown before
 * it with a one-line marker. A run may cover lines its source shows as markers: references chain, and resolve in
 * order. The recipe to restore each rewritten block sits in its record.
 *
 * @param history - The history; not modified.
 * @param options - Settings and workspace root.
 * @returns The rewritten entries and the counts.
 * @example
 * ```ts
 * const plan = planReferences(history, { settings, workspaceRoot: '/repo' });
 * const next = history.map((entry, index) => plan.replacements.get(index) ?? entry);
 * ```
 */
export function planReferences(history: readonly HistoryEntry[], options: PlanReferencesOptions): ReferencePlan {
  const planner = createReferencePlanner(options);
  const signed = findSignedTurnEntries(history);
  const replacements = new Map<number, HistoryEntry>();
  const counts = { ...zeroCounts };
  history.forEach((entry, entryIndex) => {
    const plan = planner.planEntry(entry, entryIndex, signed[entryIndex] === true);
    if (plan.replacement === undefined) return;
    replacements.set(entryIndex, plan.replacement);
    addCounts(counts, plan.counts);
  });
  return { replacements, counts, referencedSources: new Set(planner.referencedSources) };
}

/**
 * Adds `added` to `total`, key by key.
 *
 * @param total - Changed in place.
 * @param added - Counts to add.
 * @param sign - 1 to add, -1 to subtract.
 */
export function addCounts(total: MutableCounts, added: LosslessCounts, sign: 1 | -1 = 1): void {
  total.fileReadsDeduplicated += sign * added.fileReadsDeduplicated;
  total.toolResultsConsolidated += sign * added.toolResultsConsolidated;
  total.lineRangesReferenced += sign * added.lineRangesReferenced;
  total.obsoleteStatesRemoved += sign * added.obsoleteStatesRemoved;
  total.charactersSaved += sign * added.charactersSaved;
}

/**
 * Creates a {@link ReferencePlanner} with nothing indexed yet: planning every entry of a history in order with it
 * gives {@link planReferences}'s result.
 *
 * @param options - Settings and workspace root.
 * @returns The planner.
 * @example
 * ```ts
 * const planner = createReferencePlanner({ settings, workspaceRoot: '/repo' });
 * const { replacement } = planner.planEntry(history[0], 0, false);
 * ```
 */
export function createReferencePlanner(options: PlanReferencesOptions): ReferencePlanner {
  const { settings, workspaceRoot } = options;
  const index = createLineIndex();
  const sourceByKey = new Map<string, number>();
  // Whole copies: each copy's first occurrence (by source number), and how many identical operations the first
  // occurrence stands for so far (1 when absent), whichever copy a later one points at.
  const firstCopyOf = new Map<number, number>();
  const operationsOf = new Map<number, number>();
  const callsById = new Map<string, ToolCallBlock>();
  const semanticsOf = new Map<ToolCallBlock, ToolCallSemantics>();
  // Calls of validated (frozen) entries: their classification is remembered for every strategy of the process (a
  // later pass, such as compress()'s superseded todo lists, reads it instead of parsing each command again).
  const unchangingCalls = new WeakSet<ToolCallBlock>();
  const descriptions = new Map<ToolCallBlock | undefined, SourceDescription>();
  const referencedSources = new Set<string>();
  // The counts of the entry being planned.
  let counts: MutableCounts = { ...zeroCounts };
  const minimum = settings.minReferenceCharacters;
  // Undo steps of what planning changed (sources added aside: the index drops those), and where the journal and the
  // index stood before each planned entry: a few steps per tool call, kept for the conversation's life.
  const journal: (() => void)[] = [];
  const journalBefore: number[] = [];
  const sourcesBefore: number[] = [];
  const setUndoably = <Key, Value>(map: Map<Key, Value>, key: Key, value: Value): void => {
    const had = map.has(key);
    const previous = map.get(key);
    journal.push(() => (had ? map.set(key, previous as Value) : map.delete(key)));
    map.set(key, value);
  };
  const shadowUndoably = (kind: 'result' | 'call', id: string): void => {
    const shadowed = index.shadow(kind, id);
    if (shadowed.length > 0) journal.push(() => index.unshadow(shadowed));
  };

  const semantics = (call: ToolCallBlock): ToolCallSemantics => {
    let known = semanticsOf.get(call);
    if (known === undefined) {
      known = classifyRememberedToolCall(call, { workspaceRoot }, unchangingCalls.has(call));
      semanticsOf.set(call, known);
    }
    return known;
  };
  const describe = (call: ToolCallBlock | undefined): SourceDescription => {
    let known = descriptions.get(call);
    if (known === undefined) {
      known = describeSourceCall(call, call === undefined ? undefined : semantics(call));
      descriptions.set(call, known);
    }
    return known;
  };
  const sourceKey = (source: Pick<IndexedSource['source'], 'kind' | 'id' | 'leaf'>): string =>
    `${source.kind}:${source.id}:${leafPathKey(source.leaf)}`;
  /** Indexes a string; `copyOf` is the source it repeats whole, if any (for "Consolidated N operations"). */
  const addSource = (input: Parameters<LineIndex['add']>[0], copyOf: number | undefined): void => {
    const sourceNumber = index.add(input);
    setUndoably(sourceByKey, sourceKey(input.source), sourceNumber);
    if (copyOf === undefined) return;
    const first = firstCopyOf.get(copyOf) ?? copyOf;
    setUndoably(firstCopyOf, sourceNumber, first);
    setUndoably(operationsOf, first, (operationsOf.get(first) ?? 1) + 1);
  };

  /** Whether a result may be rewritten: its kind is switched on, and it is not an error kept verbatim. */
  const isRewritable = (call: ToolCallBlock | undefined, isError: boolean): boolean => {
    const isRead = call !== undefined && semantics(call).kind === 'read';
    if (!(isRead ? settings.deduplicateFileReads : settings.consolidateToolResults)) return false;
    return !(settings.keepErrorResults && isError);
  };

  /** The marker and the record of one accepted run. */
  const describeRun = (
    run: LineRun,
    lines: readonly string[],
    target: {
      readonly entryIndex: number;
      readonly leaf: LeafPath;
      readonly isRead: boolean;
      readonly isParameters: boolean;
      /** Entries an earlier marker of the same string already named with their operation. */
      readonly named: ReadonlySet<number>;
    },
  ): { marker: MarkerDescription; reference: Omit<LineReference, 'at'> } => {
    const hash = hashLines(lines, run.start, run.count);
    const first = parseNumberedLine(lines[run.start] as string);
    const numbering =
      first.number === undefined
        ? undefined
        : { start: first.number, width: first.width as number, separator: first.separator as string };
    const base = { leaf: target.leaf, from: run.from, count: run.count, hash, ...(numbering === undefined ? {} : { numbering }) };
    if (run.sourceNumber === undefined) {
      return {
        marker: { kind: 'same-output', source: displayRange(lines, run.from, run.count), hash },
        reference: { ...base, type: 'output', originalIndex: target.entryIndex, source: { kind: 'self' } },
      };
    }
    const source = index.sources[run.sourceNumber] as IndexedSource;
    const description = describe(source.call);
    const reference = {
      ...base,
      type: description.type,
      originalIndex: source.entryIndex,
      ...(description.path === undefined ? {} : { path: description.path }),
      operation: description.operation,
      source: source.source,
    };
    const isStatus =
      settings.removeObsoleteState &&
      (lines[run.start] as string).trimStart().startsWith(reminderStart) &&
      (lines[run.start + run.count - 1] as string).trimEnd().endsWith(reminderEnd);
    if (isStatus) return { marker: { kind: 'repeated-status', messageIndex: source.entryIndex, hash }, reference };
    // Parameters the model wrote never read as "same output": a whole repeat there is described by its lines.
    const isWhole =
      !target.isParameters && run.start === 0 && run.count === lines.length && run.from === 0 && run.count === source.lines.length;
    if (isWhole) {
      const marker: MarkerDescription =
        target.isRead && description.type === 'file'
          ? { kind: 'repeated-file', messageIndex: source.entryIndex, operation: description.operation, hash }
          : {
              kind: 'consolidated',
              messageIndex: source.entryIndex,
              operation: description.operation,
              operations: (operationsOf.get(firstCopyOf.get(run.sourceNumber) ?? run.sourceNumber) ?? 1) + 1,
              hash,
            };
      return { marker, reference: { ...reference, whole: true } };
    }
    const shownRange = displayRange(source.lines, run.from, run.count);
    const sourceRange = source.source.kind === 'call' && !shownRange.numbered ? { ...shownRange, inCall: true } : shownRange;
    const here =
      numbering !== undefined && !(sourceRange.numbered && sourceRange.first === numbering.start)
        ? { first: numbering.start, last: numbering.start + run.count - 1 }
        : undefined;
    return {
      marker: {
        kind: 'lines',
        messageIndex: source.entryIndex,
        // The reader was told what that message is a few lines up; saying it again costs tokens and tells nothing.
        ...(target.named.has(source.entryIndex) ? {} : { operation: description.operation }),
        source: sourceRange,
        ...(here === undefined ? {} : { here }),
        hash,
      },
      reference,
    };
  };

  const noteReference = (reference: Pick<LineReference, 'source'>): void => {
    if (reference.source.kind === 'self') return;
    const key = `${reference.source.kind}:${reference.source.id}`;
    if (referencedSources.has(key)) return;
    referencedSources.add(key);
    journal.push(() => referencedSources.delete(key));
  };

  /**
   * Rewrites the strings of one block's result or parameters, replacing runs of lines shown earlier with markers,
   * and indexes its original lines. Returns the new value and its references (none when nothing was worth one).
   */
  const planValue = (value: JsonValue, target: PlanTarget): { readonly value: JsonValue; readonly references: readonly LineReference[] } => {
    const isParameters = target.source === 'call';
    // Asked only of a block with a run worth a marker: most blocks have none, and their calls are never classified.
    let isRead: boolean | undefined;
    const readsFile = (): boolean => (isRead ??= !isParameters && target.call !== undefined && semantics(target.call).kind === 'read');
    const leaves = listTextLeaves(value, { scope: isParameters ? 'any' : 'text' }).filter((leaf) => leaf.text.length >= minimum);
    const planned: PlannedLeaf[] = leaves.map((leaf) => {
      const lines = leaf.text.split('\n');
      const parsed = lines.map(parseNumberedLine);
      const ids = parsed.map((line) => index.idOf(line.content));
      // Runs are searched above the kept tail only, so the tail never hides behind a marker.
      const searched = target.keptTailLines === 0 ? lines.length : findTailStart(lines, target.keptTailLines);
      const whole = searched === lines.length;
      const runs = findLineRuns(whole ? lines : lines.slice(0, searched), {
        parsed: whole ? parsed : parsed.slice(0, searched),
        ids: whole ? ids : ids.slice(0, searched),
        index,
        allowSelf: true,
        maximumCandidates,
        // The marker is at most a fixed size apart from the operation; this cheap bound skips hashing most
        // candidates. The exact rule (at least twice the marker) is applied once the marker is known.
        accept: (run) => run.characters >= minimum,
      });
      return { leaf, lines, ids, runs };
    });
    const rewritable = planned.some((leaf) => leaf.runs.length > 0) && target.rewritable();

    let rewritten: JsonValue = value;
    const references: LineReference[] = [];
    for (const { leaf, lines, ids, runs } of planned) {
      // The rewritten text: spans of the original (runs of kept lines, cut out whole) and markers, one per line.
      // `pieces` says the same with the spans as ranges of the original, line breaks included, for the token counter.
      const parts: string[] = [];
      const pieces: TextPiece[] = [];
      let outputLines = 0;
      let cursor = 0;
      let offset = 0;
      let copyOf: number | undefined;
      let hidden: boolean[] | undefined;
      if (rewritable) {
        const named = new Set<number>();
        for (const run of runs) {
          const { marker, reference } = describeRun(run, lines, { entryIndex: target.entryIndex, leaf: leaf.path, isRead: readsFile(), isParameters, named });
          const markerText = formatReferenceMarker(marker);
          if (run.characters < 2 * markerText.length) continue;
          if (run.start > cursor) {
            const kept = textLength(lines, cursor, run.start);
            parts.push(leaf.text.slice(offset, offset + kept));
            pieces.push({ text: leaf.text, start: offset, end: offset + kept + 1 });
            outputLines += run.start - cursor;
            offset += kept + 1;
          }
          references.push({ ...reference, at: outputLines });
          parts.push(markerText);
          pieces.push(`${markerText}\n`);
          outputLines++;
          offset += textLength(lines, run.start, run.start + run.count) + 1;
          hidden ??= new Array<boolean>(lines.length).fill(false);
          hidden.fill(true, run.start, run.start + run.count);
          cursor = run.start + run.count;
          if (marker.kind === 'lines') named.add(marker.messageIndex);
          if (reference.whole === true) copyOf = run.sourceNumber;
          counts[countKey(marker.kind)] += 1;
          noteReference(reference);
        }
      }
      if (cursor > 0) {
        if (cursor < lines.length) {
          parts.push(leaf.text.slice(offset));
          pieces.push({ text: leaf.text, start: offset, end: leaf.text.length });
        } else {
          // The text ends in a marker: no line break after it.
          pieces[pieces.length - 1] = parts.at(-1) as string;
        }
        const text = parts.join('\n');
        noteComposedText(text, pieces);
        counts.charactersSaved += leaf.text.length - text.length;
        rewritten = replaceTextLeaf(rewritten, leaf.path, text);
      }
      // Parameters are rewritten (rewriteToolCallParameters) without being shown to later results unless asked.
      if (isParameters && !settings.referenceToolCallParameters) continue;
      addSource({
        source: { kind: target.source, id: target.id, leaf: leaf.path },
        entryIndex: target.entryIndex,
        blockIndex: target.blockIndex,
        call: target.call,
        // Indexed as they originally were, markers or not: a later copy of the whole output then takes one
        // reference to it instead of one per source its markers name (the chain resolves, and expands, in order).
        lines,
        ids,
        hidden,
      }, copyOf);
    }
    return { value: rewritten, references };
  };

  /**
   * The original lines of a string rewritten by an earlier pass: each marker's lines rebuilt from its source, as
   * `expandHistory` does; undefined where a source is gone or does not verify (nothing can point at those).
   */
  const recordedLines = (
    text: string,
    references: readonly LineReference[],
  ): Pick<IndexedSource, 'lines' | 'hidden'> => {
    const compressed = text.split('\n');
    if (references.length === 0) return { lines: compressed, hidden: undefined };
    const markers = new Map(references.map((reference) => [reference.at, reference]));
    const lines: (string | undefined)[] = [];
    const hidden: boolean[] = [];
    compressed.forEach((line, position) => {
      const reference = markers.get(position);
      if (reference === undefined) {
        lines.push(line);
        hidden.push(false);
        return;
      }
      for (let line = 0; line < reference.count; line++) hidden.push(true);
      const { source } = reference;
      const sourceNumber = source.kind === 'self' ? undefined : sourceByKey.get(sourceKey(source));
      const sourceLines = source.kind === 'self' ? lines : sourceNumber === undefined ? undefined : index.sources[sourceNumber]?.lines;
      const rebuilt = sourceLines === undefined ? undefined : rebuildReferencedLines(reference, sourceLines);
      if (rebuilt === undefined) for (let hidden = 0; hidden < reference.count; hidden++) lines.push(undefined);
      else lines.push(...rebuilt);
    });
    return { lines, hidden };
  };

  /** Indexes the original lines of a block rewritten by an earlier pass. */
  const indexRecorded = (value: JsonValue, record: LosslessRecord, target: Omit<PlanTarget, 'rewritable' | 'keptTailLines'>): void => {
    const byLeaf = new Map<string, LineReference[]>();
    for (const reference of record.references ?? []) {
      noteReference(reference);
      const key = leafPathKey(reference.leaf);
      byLeaf.set(key, [...(byLeaf.get(key) ?? []), reference]);
    }
    if (target.source === 'call' && !settings.referenceToolCallParameters) return;
    for (const leaf of listTextLeaves(value, { scope: target.source === 'call' ? 'any' : 'text' })) {
      if (leaf.text.length < minimum && !byLeaf.has(leafPathKey(leaf.path))) continue;
      const references = byLeaf.get(leafPathKey(leaf.path)) ?? [];
      const whole = references.find((reference) => reference.whole === true);
      const copyOf = whole === undefined || whole.source.kind === 'self' ? undefined : sourceByKey.get(sourceKey(whole.source));
      addSource(
        {
          source: { kind: target.source, id: target.id, leaf: leaf.path },
          entryIndex: target.entryIndex,
          blockIndex: target.blockIndex,
          call: target.call,
          ...recordedLines(leaf.text, references),
        },
        copyOf,
      );
    }
  };

  const planEntry = (entry: HistoryEntry, entryIndex: number, inSignedTurn: boolean): EntryPlan => {
    if (entryIndex !== journalBefore.length) {
      throw new Error(`Expected entries planned in order: entry ${journalBefore.length} next, found ${entryIndex}`);
    }
    journalBefore.push(journal.length);
    sourcesBefore.push(index.sources.length);
    if (entry.speaker !== 'ai' && entry.speaker !== 'tool') return { replacement: undefined, counts: zeroCounts };
    counts = { ...zeroCounts };
    let blocks: ContentBlock[] | undefined;
    entry.blocks.forEach((block, blockIndex) => {
      if (block.type === 'tool_call') {
        shadowUndoably('call', block.id);
        setUndoably(callsById, block.id, block);
        if (isValidatedEntry(entry)) unchangingCalls.add(block);
        if (!settings.referenceToolCallParameters && !settings.rewriteToolCallParameters) return;
        const { record, problem } = readRecordOnce(block, entry);
        // A superseded todo list is hidden behind its marker: nothing of it is visible.
        if (problem !== undefined || record?.superseded !== undefined) return;
        const target = { source: 'call', id: block.id, entryIndex, blockIndex, call: block } as const;
        if (record !== undefined) {
          indexRecorded(block.parameters, record, target);
          return;
        }
        const planned = planValue(block.parameters, {
          ...target,
          // Signed thinking goes back to the provider with its turn unchanged.
          rewritable: () => settings.rewriteToolCallParameters && !inSignedTurn,
          keptTailLines: 0,
        });
        if (planned.references.length === 0) return;
        blocks ??= [...entry.blocks];
        blocks[blockIndex] = {
          ...block,
          parameters: planned.value,
          providerMetadata: withLosslessRecord(block, {
            version: 1,
            field: 'parameters',
            hash: hashJson(block.parameters),
            references: planned.references,
          }),
        };
        return;
      }
      if (block.type !== 'tool_response') return;
      shadowUndoably('result', block.callId);
      const call = callsById.get(block.callId);
      const { record, problem } = readRecordOnce(block, entry);
      // A block whose record does not parse is left alone and shows nothing reliable to point at.
      if (problem !== undefined) return;
      const target = { source: 'result', id: block.callId, entryIndex, blockIndex, call } as const;
      if (record !== undefined) {
        indexRecorded(block.result, record, target);
        return;
      }
      const isError = classifyToolResult(block, call).outcome === 'error';
      const planned = planValue(block.result, {
        ...target,
        rewritable: () => isRewritable(call, isError),
        // An error result stays itself: what failed, at its end, is always visible in it (FR-LC-002).
        keptTailLines: isError ? settings.errorTailLines : 0,
      });
      if (planned.references.length === 0) return;
      blocks ??= [...entry.blocks];
      blocks[blockIndex] = {
        ...block,
        result: planned.value,
        providerMetadata: withLosslessRecord(block, {
          version: 1,
          field: 'result',
          hash: hashJson(block.result),
          references: planned.references,
        }),
      };
    });
    if (blocks === undefined) return { replacement: undefined, counts: zeroCounts };
    // Validated (copied and frozen) once, here: plans are kept, so every later call hands out this same object, which
    // the history service and token counter recognise instead of copying and counting it again.
    return { replacement: toValidatedEntry({ ...entry, blocks }), counts };
  };

  return {
    planEntry,
    referencedSources,
    rollbackTo(entryIndex) {
      if (entryIndex > journalBefore.length) {
        throw new Error(`Expected an entry planned already (fewer than ${journalBefore.length}), found ${entryIndex}`);
      }
      if (entryIndex === journalBefore.length) return;
      const mark = journalBefore[entryIndex] as number;
      for (let step = journal.length - 1; step >= mark; step--) (journal[step] as () => void)();
      journal.length = mark;
      index.truncate(sourcesBefore[entryIndex] as number);
      journalBefore.length = entryIndex;
      sourcesBefore.length = entryIndex;
    },
  };
}
