import type { ContentBlock, HistoryEntry, JsonValue, ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import { hashContent } from './content-hash.js';
import { LosslessReferenceError } from './lossless-reference-error.js';
import { readLosslessRecord, withoutLosslessRecord, type LineReference, type LosslessRecord } from './lossless-record.js';
import { rebuildReferencedLines } from './rebuild-referenced-lines.js';
import type { ReferenceStore } from './reference-store.js';
import { leafPathKey, readTextLeaf, replaceTextLeaf } from './text-leaves.js';

type RecordedBlock = ToolCallBlock | ToolResponseBlock;

/**
 * Restores a history rewritten by the lossless strategy exactly as it was (spec 004 FR-LC-003): every marker is
 * replaced by the lines it stands for, rebuilt from its source and checked against its hash, every superseded todo
 * list is put back, and every record is removed from the blocks. `expandHistory(compressed)` deep-equals the
 * history the strategy was given; entries without references are returned as the same objects.
 *
 * The compressed history is its own store: a reference points at an earlier block of the same history (by call id,
 * the nearest block with that id before it). Pass a `store` when a lossy pass (truncation, summarization) may have
 * dropped sources since; it is consulted for sources that are gone or no longer verify.
 *
 * @param history - A history with references (or without: it is returned unchanged).
 * @param store - Earlier content for sources no longer in `history` (see {@link createReferenceStore}).
 * @returns The original history.
 * @throws {@link LosslessReferenceError} when a source is missing (`missing-source`), does not verify
 *   (`hash-mismatch`) or a record is not valid (`invalid-record`).
 * @example
 * ```ts
 * const service = new HistoryService({ tokenizer, history });
 * await service.applyDensityResult(strategy.optimize(history, densityConfig), strategy.name);
 * expandHistory(service.getRawHistory()); // deep-equals history
 * ```
 */
export function expandHistory(history: readonly HistoryEntry[], store?: ReferenceStore): HistoryEntry[] {
  const positions = new Map<string, [number, number][]>();
  history.forEach((entry, entryIndex) => {
    entry.blocks.forEach((block, blockIndex) => {
      const key =
        block.type === 'tool_call' ? `call:${block.id}` : block.type === 'tool_response' ? `result:${block.callId}` : undefined;
      if (key === undefined) return;
      const list = positions.get(key);
      if (list === undefined) positions.set(key, [[entryIndex, blockIndex]]);
      else list.push([entryIndex, blockIndex]);
    });
  });
  const restoredBlocks: (readonly ContentBlock[] | undefined)[] = new Array<readonly ContentBlock[] | undefined>(history.length);
  const sourceLineCache = new Map<string, readonly string[] | undefined>();

  const restoredBlock = (entryIndex: number, blockIndex: number): ContentBlock | undefined =>
    (restoredBlocks[entryIndex] ?? history[entryIndex]?.blocks)?.[blockIndex];

  /** Lines of the nearest source before (entryIndex, blockIndex), restored; undefined when there is none. */
  const historyLines = (reference: LineReference, entryIndex: number, blockIndex: number): readonly string[] | undefined => {
    const { source } = reference;
    if (source.kind === 'self') return undefined;
    const list = positions.get(`${source.kind}:${source.id}`) ?? [];
    let found: [number, number] | undefined;
    for (let position = list.length - 1; position >= 0; position--) {
      const [sourceEntry, sourceBlock] = list[position] as [number, number];
      if (sourceEntry < entryIndex || (sourceEntry === entryIndex && sourceBlock < blockIndex)) {
        found = [sourceEntry, sourceBlock];
        break;
      }
    }
    if (found === undefined) return undefined;
    const cacheKey = `${found[0]}:${found[1]}:${leafPathKey(source.leaf)}`;
    if (sourceLineCache.has(cacheKey)) return sourceLineCache.get(cacheKey);
    const block = restoredBlock(found[0], found[1]);
    const value = block?.type === 'tool_call' ? block.parameters : block?.type === 'tool_response' ? block.result : undefined;
    const text = value === undefined ? undefined : readTextLeaf(value, source.leaf);
    const lines = text?.split('\n');
    sourceLineCache.set(cacheKey, lines);
    return lines;
  };

  const restoreLeaf = (
    text: string,
    references: readonly LineReference[],
    entryIndex: number,
    blockIndex: number,
  ): string => {
    const fail = (problem: 'missing-source' | 'hash-mismatch' | 'invalid-record', detail: string): never => {
      throw new LosslessReferenceError({
        problem,
        entryIndex,
        blockIndex,
        message: `Cannot expand the reference in entry ${entryIndex}, block ${blockIndex}: ${detail}`,
      });
    };
    const compressed = text.split('\n');
    const ordered = [...references].sort((first, second) => first.at - second.at);
    const output: string[] = [];
    let next = 0;
    compressed.forEach((line, position) => {
      const reference = ordered[next];
      if (reference === undefined || reference.at !== position) {
        output.push(line);
        return;
      }
      next++;
      let lines: string[] | undefined;
      let sawSource: boolean;
      if (reference.source.kind === 'self') {
        sawSource = true;
        lines = rebuildReferencedLines(reference, output);
      } else {
        const fromHistory = historyLines(reference, entryIndex, blockIndex);
        sawSource = fromHistory !== undefined;
        lines = fromHistory === undefined ? undefined : rebuildReferencedLines(reference, fromHistory);
        if (lines === undefined && store !== undefined) {
          for (const candidate of store.lookup(reference.source)) {
            sawSource = true;
            lines = rebuildReferencedLines(reference, candidate.split('\n'));
            if (lines !== undefined) break;
          }
        }
      }
      if (lines === undefined) {
        const what = reference.source.kind === 'self' ? 'earlier lines of the same output' : `${reference.source.kind} of call ${reference.source.id}`;
        if (sawSource) fail('hash-mismatch', `the ${what} no longer hash to ${reference.hash}`);
        fail('missing-source', `no ${what} before it${store === undefined ? ' (pass a reference store if a lossy pass dropped it)' : ', in the history or the store'}`);
      }
      output.push(...(lines as string[]));
    });
    if (next < ordered.length) fail('invalid-record', `a marker line is missing (expected one at line ${ordered[next]?.at ?? '?'})`);
    return output.join('\n');
  };

  const restore = (block: RecordedBlock, record: LosslessRecord, entryIndex: number, blockIndex: number): RecordedBlock => {
    const value: JsonValue = record.field === 'result' ? (block as ToolResponseBlock).result : (block as ToolCallBlock).parameters;
    let original: JsonValue = value;
    if (record.superseded !== undefined) {
      original = record.superseded.original;
    } else {
      const byLeaf = new Map<string, LineReference[]>();
      for (const reference of record.references ?? []) {
        const key = leafPathKey(reference.leaf);
        byLeaf.set(key, [...(byLeaf.get(key) ?? []), reference]);
      }
      for (const references of byLeaf.values()) {
        const leaf = (references[0] as LineReference).leaf;
        const text = readTextLeaf(value, leaf);
        if (text === undefined) {
          throw new LosslessReferenceError({
            problem: 'invalid-record',
            entryIndex,
            blockIndex,
            message: `Cannot expand entry ${entryIndex}, block ${blockIndex}: its record names ${leafPathKey(leaf)}, which holds no string`,
          });
        }
        original = replaceTextLeaf(original, leaf, restoreLeaf(text, references, entryIndex, blockIndex));
      }
    }
    if (hashContent(JSON.stringify(original)) !== record.hash) {
      throw new LosslessReferenceError({
        problem: 'hash-mismatch',
        entryIndex,
        blockIndex,
        message: `Cannot expand entry ${entryIndex}, block ${blockIndex}: the restored ${record.field} does not hash to ${record.hash} (the block was edited after compression)`,
      });
    }
    const providerMetadata = withoutLosslessRecord(block, record);
    const { providerMetadata: _compressed, ...rest } = block;
    const restored = { ...rest, [record.field]: original } as RecordedBlock;
    return providerMetadata === undefined ? restored : { ...restored, providerMetadata };
  };

  return history.map((entry, entryIndex) => {
    let blocks: ContentBlock[] | undefined;
    entry.blocks.forEach((block, blockIndex) => {
      if (block.type !== 'tool_call' && block.type !== 'tool_response') return;
      const { record, problem } = readLosslessRecord(block);
      if (problem !== undefined) {
        throw new LosslessReferenceError({
          problem: 'invalid-record',
          entryIndex,
          blockIndex,
          message: `Cannot expand entry ${entryIndex}, block ${blockIndex}: its record is not valid (${problem})`,
        });
      }
      if (record === undefined) return;
      blocks ??= [...entry.blocks];
      blocks[blockIndex] = restore(block, record, entryIndex, blockIndex);
      // Later blocks of this entry may point at this one.
      restoredBlocks[entryIndex] = blocks;
    });
    if (blocks === undefined) return entry;
    restoredBlocks[entryIndex] = blocks;
    return { ...entry, blocks };
  });
}
