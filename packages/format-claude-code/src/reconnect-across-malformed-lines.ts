import type { ClaudeCodeRecord } from './claude-code-record.js';
import type { ClaudeCodeReconnection } from './claude-code-session.js';
import type { MalformedLineSalvage } from './salvage-malformed-line.js';

/** A malformed line as the reader saw it. */
export interface MalformedLineInput {
  readonly line: number;
  readonly problem: string;
  readonly salvage: MalformedLineSalvage;
}

/** The records with lost parents joined to the conversation, and what was joined or could not be. */
export interface ReconnectionResult {
  /** The records, in file order; reconnected ones are new objects with `parentUuid` and `reconnectedAcross` set. */
  readonly records: readonly ClaudeCodeRecord[];
  readonly reconnections: readonly ClaudeCodeReconnection[];
  /** Malformed line → lines of records whose parent was lost there and that stay roots (a compaction lies between). */
  readonly cutOff: ReadonlyMap<number, readonly number[]>;
}

type MutableRecord = { -readonly [Key in keyof ClaudeCodeRecord]: ClaudeCodeRecord[Key] };

const sameLane = (first: ClaudeCodeRecord, second: ClaudeCodeRecord) =>
  first.isSidechain === second.isSidechain && first.agentId === second.agentId;

/** Index of the last record whose line is before `line` (records are in line order), or -1. */
function lastRecordBefore(records: readonly ClaudeCodeRecord[], line: number): number {
  let low = 0;
  let high = records.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((records[middle] as ClaudeCodeRecord).line < line) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/**
 * Joins the conversation across malformed lines. Claude Code chains every record to the one before it through
 * `parentUuid`; a line that cannot be read takes its record's uuid with it, so the next record names a parent that
 * is not in the file and everything before it would look like an abandoned branch. For each record whose parent is
 * missing and that follows a malformed line, the parent is found, in order of trust:
 *
 * 1. the damaged line still shows the missing uuid and its own `parentUuid`: follow that (through further damaged
 *    lines if needed) to a record in the file;
 * 2. otherwise, file order: the last record of the same lane (main conversation, or the same subagent) before the
 *    damaged line, skipping the damaged lines directly before it (a run of broken lines is one gap).
 *
 * A record is never joined to a parent in another epoch (a compaction between them cut the link anyway) nor to a
 * record after it. Linear in the records plus the malformed lines, with a binary search per lost parent.
 *
 * @param records - The records in file order.
 * @param malformed - The malformed lines in file order.
 * @returns The records with lost parents replaced, and what was done.
 */
export function reconnectAcrossMalformedLines(
  records: readonly ClaudeCodeRecord[],
  malformed: readonly MalformedLineInput[],
): ReconnectionResult {
  if (malformed.length === 0) return { records, reconnections: [], cutOff: new Map() };
  const indexByUuid = new Map<string, number>();
  records.forEach((record, index) => {
    if (record.uuid !== undefined && !indexByUuid.has(record.uuid)) indexByUuid.set(record.uuid, index);
  });
  const malformedByUuid = new Map<string, MalformedLineInput>();
  for (const entry of malformed) {
    if (entry.salvage.uuid !== undefined && !indexByUuid.has(entry.salvage.uuid)) malformedByUuid.set(entry.salvage.uuid, entry);
  }
  const malformedLines = malformed.map((entry) => entry.line);
  /** The latest malformed line before `line` that may have held `uuid` (its uuid is unreadable or is that uuid). */
  const findLostLine = (uuid: string, line: number): MalformedLineInput | undefined => {
    const named = malformedByUuid.get(uuid);
    if (named !== undefined) return named.line < line ? named : undefined;
    for (let index = malformed.length - 1; index >= 0; index--) {
      const entry = malformed[index] as MalformedLineInput;
      if (entry.line < line && entry.salvage.uuid === undefined) return entry;
    }
    return undefined;
  };

  const result = [...records];
  const reconnections: ClaudeCodeReconnection[] = [];
  const cutOff = new Map<number, number[]>();
  records.forEach((record, recordIndex) => {
    const missing = record.parentUuid;
    if (missing === undefined || record.uuid === undefined || indexByUuid.has(missing)) return;
    const lost = findLostLine(missing, record.line);
    if (lost === undefined) return;

    const across = [lost.line];
    let current = lost;
    let parentIndex: number | undefined;
    let method: ClaudeCodeReconnection['method'] = 'file-order';
    for (;;) {
      const named = current.salvage.parentUuid;
      if (named === null) {
        method = 'named-by-damaged-line';
        break;
      }
      if (named !== undefined) {
        const index = indexByUuid.get(named);
        if (index !== undefined && index < recordIndex) {
          parentIndex = index;
          method = 'named-by-damaged-line';
          break;
        }
        const further = malformedByUuid.get(named);
        if (further !== undefined && further.line < current.line && !across.includes(further.line)) {
          across.push(further.line);
          current = further;
          continue;
        }
      }
      // File order: the last record of the lane before the damage; broken lines directly before it join the gap.
      for (let index = lastRecordBefore(records, current.line); index >= 0; index--) {
        const candidate = records[index] as ClaudeCodeRecord;
        if (candidate.uuid === undefined || candidate.type === 'compact_system' || !sameLane(candidate, record)) continue;
        parentIndex = index;
        break;
      }
      const floor = parentIndex === undefined ? 0 : (records[parentIndex] as ClaudeCodeRecord).line;
      for (const line of malformedLines) {
        if (line > floor && line < current.line && !across.includes(line)) across.push(line);
      }
      break;
    }

    const parent = parentIndex === undefined ? undefined : (records[parentIndex] as ClaudeCodeRecord);
    if (parent !== undefined && parent.epoch !== record.epoch) {
      const lines = cutOff.get(lost.line) ?? [];
      lines.push(record.line);
      cutOff.set(lost.line, lines);
      return;
    }
    across.sort((first, second) => first - second);
    const joined: MutableRecord = { ...record, reconnectedAcross: across };
    if (parent?.uuid === undefined) delete joined.parentUuid;
    else joined.parentUuid = parent.uuid;
    result[recordIndex] = joined;
    reconnections.push({
      line: record.line,
      uuid: record.uuid,
      missingParentUuid: missing,
      acrossLines: across,
      ...(parent?.uuid === undefined ? {} : { parentUuid: parent.uuid, parentLine: parent.line }),
      method,
    });
  });
  return { records: result, reconnections, cutOff };
}
