import type { FormatWarning, JsonObject } from '@ctx/core';
import { readNumberField, readObjectField, readStringField } from '@ctx/format-utils';
import type { ClaudeCodeCompaction, ClaudeCodePreservedSegment } from './claude-code-session.js';
import { withoutUndefined } from './record-fields.js';

type MutableCompaction = { -readonly [Key in keyof ClaudeCodeCompaction]: ClaudeCodeCompaction[Key] };

/** What the tracker needs to know about a record, read once by the reader. */
export interface CompactionTrackerInput {
  readonly value: JsonObject;
  readonly line: number;
  readonly type: string;
  readonly uuid?: string;
  readonly parentUuid?: string;
  readonly logicalParentUuid?: string;
  readonly isSidechain: boolean;
}

/** Assigns epochs to records as they stream in and collects the compactions that separate them. */
export interface CompactionTracker {
  /**
   * Reads the next record in file order.
   *
   * @returns The record's 1-based epoch, or undefined for spec 001 `compact_system` records and the records written
   *   between `conversation_compacting` and `conversation_compacted` (spec 001 `identify_epochs` leaves them out).
   */
  observe(record: CompactionTrackerInput): number | undefined;
  /** The compactions so far, in file order. */
  readonly compactions: readonly ClaudeCodeCompaction[];
  readonly warnings: readonly FormatWarning[];
}

/** `compactMetadata` keys of a boundary whose meaning is known (none of the others changes what the model saw). */
const knownBoundaryMetadataKeys = new Set([
  'trigger',
  'preTokens',
  'preservedSegment',
  'userContext',
  'messagesSummarized',
  'preCompactDiscoveredTools',
]);

/** Spec 001 `conversation_compacted` metadata keys. */
const knownCompactSystemMetadataKeys = new Set([
  'preservedMessages',
  'totalMessages',
  'compressionRatio',
  'trigger',
  'tokenCount',
  'reducedTokenCount',
]);

/** Keys of a boundary record that carry compaction metadata besides `compactMetadata`, which the reader does not apply. */
const unappliedBoundaryFields = ['snipMetadata'];

function readPreservedSegment(metadata: JsonObject | undefined): ClaudeCodePreservedSegment | undefined {
  const segment = readObjectField(metadata, 'preservedSegment');
  const headUuid = readStringField(segment, 'headUuid');
  const anchorUuid = readStringField(segment, 'anchorUuid');
  const tailUuid = readStringField(segment, 'tailUuid');
  if (headUuid === undefined || anchorUuid === undefined || tailUuid === undefined) return undefined;
  return { headUuid, anchorUuid, tailUuid };
}

// Absent facts are left out rather than stored as `undefined`, so compactions stay plain JSON.
const optionalFields = (fields: Partial<MutableCompaction>): Partial<MutableCompaction> => withoutUndefined(fields);

/**
 * Creates a streaming compaction tracker. It recognises the three forms Claude Code files use: the modern
 * `compact_boundary` system record (followed by its `isCompactSummary` user record), the legacy root
 * `isCompactSummary` user record, and spec 001's `compact_system` records.
 *
 * @returns A tracker; feed it every record in file order.
 * @example
 * ```ts
 * const tracker = createCompactionTracker();
 * const epoch = tracker.observe({ value, line: 1, type: 'user', isSidechain: false });
 * ```
 */
export function createCompactionTracker(): CompactionTracker {
  const compactions: MutableCompaction[] = [];
  const warnings: FormatWarning[] = [];
  let epoch = 1;
  let inProgress: MutableCompaction | undefined;
  let awaitingSummary: MutableCompaction | undefined;

  const start = (form: ClaudeCodeCompaction['form'], record: CompactionTrackerInput, fields: Partial<MutableCompaction>) => {
    epoch += 1;
    const compaction: MutableCompaction = {
      number: compactions.length + 1,
      form,
      epoch,
      line: record.line,
      completed: true,
      restored: false,
      ...optionalFields({ uuid: record.uuid, timestamp: readStringField(record.value, 'timestamp'), ...fields }),
    };
    compactions.push(compaction);
    return compaction;
  };

  /** Warns once per record about metadata keys the reader does not understand: the view may not be what the model saw. */
  const warnUnknownMetadata = (record: CompactionTrackerInput, name: string, metadata: JsonObject | undefined, known: ReadonlySet<string>) => {
    const unknown = Object.keys(metadata ?? {}).filter((key) => !known.has(key));
    if (metadata !== undefined && metadata.preservedSegment !== undefined && readPreservedSegment(metadata) === undefined) {
      unknown.push('preservedSegment (expected headUuid, anchorUuid and tailUuid strings)');
    }
    if (unknown.length === 0) return;
    warnings.push({
      type: 'unsupported',
      line: record.line,
      message: `compaction at line ${record.line}: ${unknown.map((key) => `${name}.${key}`).join(', ')} not understood; the last-epoch view may differ from what the model saw`,
    });
  };

  const observeCompactSystem = (record: CompactionTrackerInput): undefined => {
    const message = record.value.message;
    const metadata = readObjectField(record.value, 'metadata');
    const metadataFields = (): Partial<MutableCompaction> => {
      warnUnknownMetadata(record, 'metadata', metadata, knownCompactSystemMetadataKeys);
      const preservedMessages = readNumberField(metadata, 'preservedMessages');
      return optionalFields({
        metadata,
        trigger: readStringField(metadata, 'trigger'),
        preTokens: readNumberField(metadata, 'tokenCount'),
        preservedMessages:
          preservedMessages !== undefined && Number.isInteger(preservedMessages) && preservedMessages > 0 ? preservedMessages : undefined,
      });
    };
    switch (message) {
      case 'conversation_compacting':
        inProgress = start('compact-system', record, { completed: false });
        return undefined;
      case 'conversation_compacted':
        if (inProgress === undefined) {
          start('compact-system', record, metadataFields());
        } else {
          Object.assign(inProgress, metadataFields(), { completed: true });
          inProgress = undefined;
        }
        return undefined;
      case 'conversation_restored': {
        const last = compactions.at(-1);
        if (last !== undefined) last.restored = true;
        return undefined;
      }
      default:
        warnings.push({
          type: 'unsupported',
          line: record.line,
          message: `compact_system record with message ${JSON.stringify(message ?? null)}: expected conversation_compacting, conversation_compacted or conversation_restored; kept, not interpreted`,
        });
        return undefined;
    }
  };

  return {
    compactions,
    warnings,
    observe(record) {
      if (record.type === 'compact_system') return observeCompactSystem(record);
      if (inProgress !== undefined) return undefined;
      if (record.isSidechain) return epoch;
      if (record.type === 'system' && record.value.subtype === 'compact_boundary') {
        const compactMetadata = readObjectField(record.value, 'compactMetadata');
        warnUnknownMetadata(record, 'compactMetadata', compactMetadata, knownBoundaryMetadataKeys);
        const unapplied = unappliedBoundaryFields.filter((field) => record.value[field] !== undefined);
        if (unapplied.length > 0) {
          warnings.push({
            type: 'unsupported',
            line: record.line,
            message: `compaction at line ${record.line}: ${unapplied.join(', ')} not understood; the last-epoch view may differ from what the model saw`,
          });
        }
        awaitingSummary = start('compact-boundary', record, {
          trigger: readStringField(compactMetadata, 'trigger'),
          preTokens: readNumberField(compactMetadata, 'preTokens'),
          logicalParentUuid: record.logicalParentUuid,
          preservedSegment: readPreservedSegment(compactMetadata),
        });
        return epoch;
      }
      if (record.type === 'user' && record.value.isCompactSummary === true) {
        if (awaitingSummary !== undefined) {
          // The modern form: the summary follows its boundary record (as its child).
          Object.assign(awaitingSummary, optionalFields({ summaryUuid: record.uuid, summaryLine: record.line }));
          awaitingSummary = undefined;
          return epoch;
        }
        if (record.parentUuid === undefined) {
          // The legacy form: the summary itself is the new root.
          start('legacy-summary', record, {
            summaryUuid: record.uuid,
            summaryLine: record.line,
            logicalParentUuid: record.logicalParentUuid,
          });
          return epoch;
        }
      }
      // A conversation record that is not the summary: the boundary's summary will not come any more.
      if (record.type === 'user' || record.type === 'assistant') awaitingSummary = undefined;
      return epoch;
    },
  };
}
