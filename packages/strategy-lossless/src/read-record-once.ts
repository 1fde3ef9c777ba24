import type { HistoryEntry, ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import { isValidatedEntry } from '@ctx/strategy-utils';
import { rawLosslessRecord, readLosslessRecord } from './lossless-record.js';

type RecordRead = ReturnType<typeof readLosslessRecord>;

// Blocks of entries the history parser validated cannot change, so what their record says is read once.
const reads = new WeakMap<ToolCallBlock | ToolResponseBlock, RecordRead>();

/**
 * {@link readLosslessRecord} of a block of `entry`, remembered per block when `entry` is one the history parser
 * validated and froze: a plan started again (an earlier entry changed) reads the records of every block it rewrote
 * before, and validating each with its schema again took a millisecond and more on the largest sessions.
 *
 * @param block - A tool call or tool response block of `entry`.
 * @param entry - The entry holding it.
 * @returns What `readLosslessRecord` returns (the same object for the same validated block; do not change it).
 */
export function readRecordOnce(block: ToolCallBlock | ToolResponseBlock, entry: HistoryEntry): RecordRead {
  if (rawLosslessRecord(block) === undefined || !isValidatedEntry(entry)) return readLosslessRecord(block);
  let read = reads.get(block);
  if (read === undefined) {
    read = readLosslessRecord(block);
    reads.set(block, read);
  }
  return read;
}
