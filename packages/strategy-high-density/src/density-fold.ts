import type { ContentBlock, DensityResult, HistoryEntry, ToolCallBlock } from '@ctx/core';
import { isValidatedEntry, type FileAccess, type ToolCallSemantics, type ToolResultClassification } from '@ctx/strategy-utils';
import { DensityEdits } from './density-edits.js';
import { FileDedupe } from './file-dedupe.js';
import { ReadWritePruning, type ReadRecord, type ResponseLocation } from './read-write-pruning.js';
import { RecencyPruning } from './recency-pruning.js';
import {
  openFileAfter,
  outcomeOf,
  responseFactsOf,
  semanticsOf,
  type ClassificationScope,
} from './tool-call-facts.js';
import { UndoJournal } from './undo-journal.js';

/** What a fold computes; fixed for its lifetime. */
export interface DensityFoldOptions {
  readonly scope: ClassificationScope;
  readonly readWritePruning: boolean;
  readonly fileDedupe: boolean;
  readonly recencyPruning: boolean;
  readonly foldEdits: boolean;
}

/** Error markers that mean the tool refused the change, so the file did not change. */
const refusedChangeMarkers: ReadonlySet<string> = new Set(['editor-error', 'edit-rejected']);

/**
 * Whether a write or edit call changed its files: yes without a response or with a success; after an error only for
 * a shell command that the editor did not refuse (`sed -i … && make` may have edited before `make` failed).
 */
function changedFiles(semantics: ToolCallSemantics, outcome: ToolResultClassification | undefined): boolean {
  if (outcome === undefined || outcome.outcome === 'success') return true;
  return semantics.command !== undefined && (outcome.marker === undefined || !refusedChangeMarkers.has(outcome.marker));
}

/**
 * The index where the history's last assistant turn starts when the history ends inside it (its `ai` entries and
 * the `tool` entries after them); `history.length` when it ends with a human entry. Everything before it is final:
 * appending entries cannot change how it pairs.
 *
 * @param history - The history.
 * @returns The start of the trailing turn.
 */
export function trailingTurnStart(history: readonly HistoryEntry[]): number {
  let index = history.length;
  while (index > 0 && history[index - 1]?.speaker === 'tool') index--;
  while (index > 0 && history[index - 1]?.speaker === 'ai') index--;
  return index;
}

/** The one tool call of a turn, where it is and the responses answering it. */
interface SingleCall {
  readonly call: ToolCallBlock;
  readonly entryIndex: number;
  readonly blockIndex: number;
  answers: ResponseLocation[] | undefined;
}

/**
 * The tool call of a turn that makes exactly one (most turns of an agent loop), with the responses answering it;
 * undefined for a turn with none or several. Found without the maps a turn of several calls needs.
 */
function singleCallOf(
  history: readonly HistoryEntry[],
  turnStart: number,
  toolStart: number,
  turnEnd: number,
): SingleCall | undefined {
  let found: SingleCall | undefined;
  for (let entryIndex = turnStart; entryIndex < toolStart; entryIndex++) {
    const { blocks } = history[entryIndex] as HistoryEntry;
    for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
      const block = blocks[blockIndex] as ContentBlock;
      if (block.type !== 'tool_call') continue;
      if (found !== undefined) return undefined;
      found = { call: block, entryIndex, blockIndex, answers: undefined };
    }
  }
  if (found === undefined) return undefined;
  for (let entryIndex = toolStart; entryIndex < turnEnd; entryIndex++) {
    const { blocks } = history[entryIndex] as HistoryEntry;
    for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
      const block = blocks[blockIndex] as ContentBlock;
      if (block.type === 'tool_response' && block.callId === found.call.id) {
        (found.answers ??= []).push({ entryIndex, blockIndex, block });
      }
    }
  }
  return found;
}

/**
 * The three density phases of spec 000 (§2c) as one left-to-right pass over a history that can be resumed: it
 * processes entries turn by turn, keeping for each phase what later entries may still change (reads waiting for a
 * write, the newest inclusion of each file, the responses of each tool), so an `optimize()` after an appended turn
 * processes only that turn. Per-block facts (tool semantics, outcomes, inclusions) come from caches keyed by the
 * frozen blocks.
 *
 * The trailing turn of a history may still receive results, so it is processed with the undo journal open and
 * rolled back after {@link DensityFold.collect}: the fold's state always ends at a turn that cannot change.
 */
export class DensityFold {
  readonly journal = new UndoJournal();
  private readonly readWrite: ReadWritePruning;
  private readonly dedupe: FileDedupe;
  private readonly recency: RecencyPruning;
  private openFile: string | undefined;
  private callOrder = 0;

  constructor(private readonly options: DensityFoldOptions) {
    this.readWrite = new ReadWritePruning(this.journal, options.foldEdits);
    this.dedupe = new FileDedupe(this.journal, options.scope.workspaceRoot);
    this.recency = new RecencyPruning(this.journal);
  }

  /**
   * Processes `history[start…end)`. `start` must be where the previous call stopped, and both must be turn
   * boundaries (or `end` the end of the history).
   *
   * @throws Whatever a registered tool classifier throws (spec 000 ERR-002).
   */
  process(history: readonly HistoryEntry[], start: number, end: number): void {
    let index = start;
    while (index < end) {
      const entry = history[index] as HistoryEntry;
      if (entry.speaker === 'human') {
        if (this.options.fileDedupe) this.dedupe.addHumanEntry(entry, index);
        index++;
        continue;
      }
      if (entry.speaker === 'tool') {
        // A tool entry that answers no assistant turn (after a human entry): it still counts for recency.
        if (this.options.recencyPruning) this.addResponses(history, index, index + 1, undefined);
        index++;
        continue;
      }
      const turnStart = index;
      while (index < end && history[index]?.speaker === 'ai') index++;
      const toolStart = index;
      while (index < end && history[index]?.speaker === 'tool') index++;
      this.processTurn(history, turnStart, toolStart, index);
    }
  }

  /**
   * The density result for `history` (the history the fold has processed completely): the phases' edits merged in
   * spec 000 order, read→write, then dedup, then recency (BR-CONFLICT-002).
   *
   * @param retention - Results kept per tool (or across all tools) for recency pruning.
   * @param recencyScope - Whether recency pruning counts per tool name or across all tools.
   */
  collect(history: readonly HistoryEntry[], retention: number, recencyScope: 'per-tool' | 'all-tools' = 'per-tool'): DensityResult {
    const edits = new DensityEdits();
    const removedReads = this.options.readWritePruning
      ? this.readWrite.collect(edits, history, { foldEdits: this.options.foldEdits })
      : new Set<ReadRecord>();
    if (this.options.fileDedupe) this.dedupe.collect(edits);
    if (this.options.recencyPruning) {
      this.recency.collect(edits, removedReads, retention, (read) => this.readWrite.removeRead(edits, read), recencyScope);
    }
    return edits.toResult(history);
  }

  private processTurn(history: readonly HistoryEntry[], turnStart: number, toolStart: number, turnEnd: number): void {
    if (!this.options.readWritePruning) {
      if (this.options.recencyPruning) this.addResponses(history, toolStart, turnEnd, undefined);
      return;
    }
    const single = singleCallOf(history, turnStart, toolStart, turnEnd);
    if (single !== undefined) {
      const { call, entryIndex, blockIndex, answers } = single;
      const unchanging = isValidatedEntry(history[entryIndex]);
      const read = this.processCall(call, entryIndex, blockIndex, answers, false, unchanging);
      const reads = read === undefined ? undefined : new Map([[call.id, read]]);
      if (this.options.recencyPruning) this.addResponses(history, toolStart, turnEnd, reads);
      return;
    }
    // Indexed loops: `forEach` over a frozen array takes V8's slow path, several times slower for a few blocks.
    const responses = new Map<string, ResponseLocation[]>();
    for (let entryIndex = toolStart; entryIndex < turnEnd; entryIndex++) {
      const { blocks } = history[entryIndex] as HistoryEntry;
      for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
        const block = blocks[blockIndex] as ContentBlock;
        if (block.type !== 'tool_response') continue;
        const location = { entryIndex, blockIndex, block };
        const existing = responses.get(block.callId);
        if (existing === undefined) responses.set(block.callId, [location]);
        else existing.push(location);
      }
    }
    const callIds = new Set<string>();
    const duplicateIds = new Set<string>();
    for (let entryIndex = turnStart; entryIndex < toolStart; entryIndex++) {
      const { blocks } = history[entryIndex] as HistoryEntry;
      for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
        const block = blocks[blockIndex] as ContentBlock;
        if (block.type !== 'tool_call') continue;
        if (callIds.has(block.id)) duplicateIds.add(block.id);
        callIds.add(block.id);
      }
    }

    const reads = this.options.recencyPruning ? new Map<string, ReadRecord>() : undefined;
    for (let entryIndex = turnStart; entryIndex < toolStart; entryIndex++) {
      const entry = history[entryIndex] as HistoryEntry;
      const { blocks } = entry;
      const unchanging = isValidatedEntry(entry);
      for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
        const call = blocks[blockIndex] as ContentBlock;
        if (call.type !== 'tool_call') continue;
        const read = this.processCall(call, entryIndex, blockIndex, responses.get(call.id), duplicateIds.has(call.id), unchanging);
        if (read !== undefined) reads?.set(call.id, read);
      }
    }
    if (this.options.recencyPruning) this.addResponses(history, toolStart, turnEnd, reads);
  }

  /**
   * Folds one call of a turn: its writes, the file it leaves open, and, when its whole result is file content, the
   * read it makes (returned).
   */
  private processCall(
    call: ToolCallBlock,
    entryIndex: number,
    blockIndex: number,
    answers: ResponseLocation[] | undefined,
    duplicateId: boolean,
    unchanging: boolean,
  ): ReadRecord | undefined {
    const { workspaceRoot } = this.options.scope;
    const semantics = semanticsOf(call, this.options.scope, this.openFile, unchanging);
    const answer = answers?.[0];
    this.setOpenFile(openFileAfter(this.openFile, semantics, answer?.block, workspaceRoot));
    const order = this.nextCallOrder();
    const outcome = answer === undefined ? undefined : outcomeOf(answer.block, call);
    if (semantics.writes.length > 0 && changedFiles(semantics, outcome)) {
      for (const access of semantics.writes) this.readWrite.addWrite(access.path, { order, call, partial: access.partial });
    }
    // Only a call whose whole result is file content is a read; globs mean more files than it names (EC-014).
    if (
      semantics.kind !== 'read' ||
      semantics.reads.length === 0 ||
      semantics.globs.length > 0 ||
      answers === undefined ||
      answer === undefined ||
      outcome?.outcome !== 'success' ||
      duplicateId
    ) {
      return undefined;
    }
    const facts = responseFactsOf(answer.block);
    const paths =
      semantics.reads.length === 1
        ? [(semantics.reads[0] as FileAccess).path]
        : [...new Set(semantics.reads.map((access) => access.path))];
    const folded = facts.marker?.kind === 'folded-read' && !facts.isPointer ? facts.marker : undefined;
    const record: ReadRecord = {
      order,
      callEntryIndex: entryIndex,
      callBlockIndex: blockIndex,
      call,
      responses: answers,
      paths,
      partial: paths.length === 1 && semantics.reads.every((access) => access.partial),
      showsContent: !facts.isPointer && facts.marker?.kind !== 'summary',
      reconstructed: folded !== undefined,
      remaining: paths.length,
      stale: false,
      awaitingFoldPoint: folded?.foldedThrough,
      originalLength: folded?.originalLength,
      baseOrder: order,
    };
    this.readWrite.addRead(record);
    return record;
  }

  private addResponses(
    history: readonly HistoryEntry[],
    start: number,
    end: number,
    reads: ReadonlyMap<string, ReadRecord> | undefined,
  ): void {
    for (let entryIndex = start; entryIndex < end; entryIndex++) {
      const { blocks } = history[entryIndex] as HistoryEntry;
      for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
        const block = blocks[blockIndex] as ContentBlock;
        if (block.type !== 'tool_response') continue;
        this.recency.add(block.toolName, {
          entryIndex,
          blockIndex,
          block,
          facts: responseFactsOf(block),
          read: reads?.get(block.callId),
        });
      }
    }
  }

  private setOpenFile(openFile: string | undefined): void {
    if (openFile === this.openFile) return;
    const previous = this.openFile;
    this.openFile = openFile;
    if (this.journal.isOpen) this.journal.record(() => (this.openFile = previous));
  }

  private nextCallOrder(): number {
    const order = this.callOrder++;
    if (this.journal.isOpen) this.journal.record(() => (this.callOrder = order));
    return order;
  }
}
