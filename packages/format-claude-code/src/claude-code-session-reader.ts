import {
  InvalidFormatError,
  isJsonArray,
  isJsonObject,
  type FormatWarning,
  type JsonObject,
  type JsonValue,
} from '@ctx/core';
import { readStringField } from '@ctx/format-utils';
import { buildClaudeCodeSession } from './build-claude-code-session.js';
import { knownClaudeCodeRecordTypes, type ClaudeCodeRecord } from './claude-code-record.js';
import type { ClaudeCodeFileStatistics, ClaudeCodeSession } from './claude-code-session.js';
import type { MalformedLineInput } from './reconnect-across-malformed-lines.js';
import { salvageMalformedLine } from './salvage-malformed-line.js';
import { countName, type NameCounts } from './name-counts.js';
import { createCompactionTracker } from './track-compactions.js';

/** The format id used in errors and warnings. */
export const claudeCodeFormat = 'claude-code-jsonl';

/**
 * Reads a Claude Code session file one line (or one chunk) at a time, so a caller can stream a 10 MB file without
 * holding its text: each line is parsed, counted and placed in its epoch as it arrives; the tree is built once, in
 * {@link ClaudeCodeSessionReader.finish}.
 */
export interface ClaudeCodeSessionReader {
  /**
   * Reads the next line, without its line break. Blank lines are skipped (they still count as lines).
   *
   * @throws `Error` when called after `finish()`: the session was built and must not change under its reader.
   */
  addLine(line: string): void;
  /**
   * Reads a chunk of text that may start or end mid-line (e.g. from a `ReadableStream`).
   *
   * @throws `Error` when called after `finish()`.
   */
  addText(chunk: string): void;
  /**
   * Ends the input and builds the session. Call it once.
   *
   * @throws `InvalidFormatError` (from `@ctx/core`) when the input had lines but none of them was a Claude Code
   *   record, or with `strict` when any line was malformed.
   */
  finish(): ClaudeCodeSession;
}

/** Options of {@link createClaudeCodeSessionReader} and {@link parseClaudeCodeSession}. */
export interface ClaudeCodeReadOptions {
  /**
   * Treat malformed lines as an error: `finish()` throws `InvalidFormatError` listing every one (line number, the
   * problem, what it held) instead of reading the rest and reporting them as warnings.
   *
   * @default false
   */
  readonly strict?: boolean;
}

const maximumQuotedLength = 80;

function describeLine(line: string): string {
  return line.length > maximumQuotedLength ? `${line.slice(0, maximumQuotedLength)}…` : line;
}

function countBlocks(message: JsonValue | undefined, blockType: string): number {
  if (!isJsonObject(message) || !isJsonArray(message.content)) return 0;
  let count = 0;
  for (const block of message.content) {
    if (isJsonObject(block) && block.type === blockType) count += 1;
  }
  return count;
}

/**
 * Creates a streaming reader for one Claude Code session file (`~/.claude/projects/<project>/<session>.jsonl` or a
 * `subagents/agent-*.jsonl` file). Browser-safe; the Node entry point `@ctx/format-claude-code/node` feeds it from
 * a file.
 *
 * Malformed lines become `malformed` warnings with their 1-based line number, what they held and what they cost,
 * and every other line is still read; the conversation is joined across them (see `ClaudeCodeSession.malformedLines`);
 * unknown record types are kept, counted and reported as `unsupported`.
 *
 * @param options - `strict`: malformed lines make `finish()` throw instead of becoming warnings.
 * @returns A reader; call `addLine`/`addText` for the input, then `finish()` once.
 * @example
 * ```ts
 * const reader = createClaudeCodeSessionReader();
 * for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) reader.addText(chunk);
 * const session = reader.finish();
 * ```
 */
export function createClaudeCodeSessionReader(options: ClaudeCodeReadOptions = {}): ClaudeCodeSessionReader {
  const records: ClaudeCodeRecord[] = [];
  const warnings: FormatWarning[] = [];
  const tracker = createCompactionTracker();
  const recordTypes: NameCounts = new Map();
  const systemSubtypes: NameCounts = new Map();
  const unknownTypes: NameCounts = new Map();
  const versions = new Set<string>();
  const sessionIds = new Set<string>();
  const malformedSamples: { line: number; message: string }[] = [];
  const malformed: MalformedLineInput[] = [];
  let lines = 0;
  let malformedLines = 0;
  let messages = 0;
  let toolCalls = 0;
  let toolResults = 0;
  let compactSummaries = 0;
  let sidechainRecords = 0;
  let toolUseResultRecords = 0;
  let pending = '';
  let finished = false;

  const reportMalformed = (line: number, problem: string, text: string) => {
    malformedLines += 1;
    if (malformedSamples.length < 5) malformedSamples.push({ line, message: problem });
    malformed.push({ line, problem, salvage: salvageMalformedLine(text) });
  };

  const countRecord = (value: JsonObject, type: string) => {
    countName(recordTypes, type);
    if (!knownClaudeCodeRecordTypes.has(type)) {
      if (!unknownTypes.has(type)) {
        warnings.push({
          type: 'unsupported',
          line: lines,
          message: `unknown record type ${JSON.stringify(type)} (first at line ${lines}): kept and counted, not converted`,
        });
      }
      countName(unknownTypes, type);
    }
    if (type === 'system') {
      const subtype = readStringField(value, 'subtype');
      if (subtype !== undefined) countName(systemSubtypes, subtype);
    }
    if (type === 'user' || type === 'assistant') messages += 1;
    if (type === 'assistant') toolCalls += countBlocks(value.message, 'tool_use');
    if (type === 'user') {
      toolResults += countBlocks(value.message, 'tool_result');
      if (value.isCompactSummary === true) compactSummaries += 1;
    }
    if (value.isSidechain === true) sidechainRecords += 1;
    if (value.toolUseResult !== undefined) toolUseResultRecords += 1;
    const version = readStringField(value, 'version');
    if (version !== undefined) versions.add(version);
    const sessionId = readStringField(value, 'sessionId');
    if (sessionId !== undefined) sessionIds.add(sessionId);
  };

  const addLine = (text: string) => {
    if (finished) throw new Error('Expected addLine()/addText() before finish(), got a call after it: create a new reader');
    lines += 1;
    const lineNumber = lines;
    // A byte-order mark or a Windows line break are not part of the record.
    let line = lineNumber === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (!/\S/.test(line)) return;
    let value: JsonValue;
    try {
      value = JSON.parse(line) as JsonValue;
    } catch (error) {
      reportMalformed(lineNumber, `not valid JSON (${error instanceof Error ? error.message : String(error)}): ${describeLine(line)}`, line);
      return;
    }
    if (!isJsonObject(value)) {
      reportMalformed(lineNumber, `expected a JSON object, found ${Array.isArray(value) ? 'an array' : typeof value}`, line);
      return;
    }
    const type = value.type;
    if (typeof type !== 'string' || type === '') {
      reportMalformed(lineNumber, 'expected a record with a string `type` field', line);
      return;
    }
    countRecord(value, type);
    const uuid = readStringField(value, 'uuid');
    const parentUuid = readStringField(value, 'parentUuid');
    const logicalParentUuid = readStringField(value, 'logicalParentUuid');
    const agentId = readStringField(value, 'agentId');
    const isSidechain = value.isSidechain === true;
    const epoch = tracker.observe({ value, line: lineNumber, type, uuid, parentUuid, logicalParentUuid, isSidechain });
    const record: { -readonly [Key in keyof ClaudeCodeRecord]: ClaudeCodeRecord[Key] } = {
      line: lineNumber,
      index: records.length,
      type,
      isSidechain,
      value,
    };
    // Optional fields are left out when absent, so records compare and print cleanly.
    if (uuid !== undefined && uuid !== '') record.uuid = uuid;
    if (parentUuid !== undefined && parentUuid !== '') record.parentUuid = parentUuid;
    if (logicalParentUuid !== undefined && logicalParentUuid !== '') record.logicalParentUuid = logicalParentUuid;
    if (agentId !== undefined) record.agentId = agentId;
    if (epoch !== undefined) record.epoch = epoch;
    records.push(record);
  };

  const addText = (chunk: string) => {
    let text = pending === '' ? chunk : pending + chunk;
    let start = 0;
    let end = text.indexOf('\n', start);
    while (end !== -1) {
      addLine(text.slice(start, end));
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    text = text.slice(start);
    pending = text;
  };

  return {
    addLine,
    addText,
    finish() {
      if (pending !== '') {
        const last = pending;
        pending = '';
        addLine(last);
      }
      finished = true;
      if (records.length === 0 && malformedLines > 0) {
        throw new InvalidFormatError({
          format: claudeCodeFormat,
          issues: malformedSamples.map((sample) => ({ path: `line ${sample.line}`, message: sample.message })),
        });
      }
      const statistics: ClaudeCodeFileStatistics = {
        lines,
        records: records.length,
        malformedLines,
        recordTypes: Object.fromEntries(recordTypes),
        systemSubtypes: Object.fromEntries(systemSubtypes),
        unknownTypes: Object.fromEntries(unknownTypes),
        messages,
        toolCalls,
        toolResults,
        compactBoundaries: systemSubtypes.get('compact_boundary') ?? 0,
        compactSummaries,
        sidechainRecords,
        toolUseResultRecords,
        versions: [...versions],
        sessionIds: [...sessionIds],
      };
      if (options.strict === true && malformed.length > 0) {
        throw new InvalidFormatError({
          format: claudeCodeFormat,
          issues: malformed.map((entry) => ({
            path: `line ${entry.line}`,
            message: `${entry.problem}; it held ${entry.salvage.description} (strict mode: malformed lines are errors)`,
          })),
        });
      }
      return buildClaudeCodeSession({
        records,
        malformed,
        warnings: [...warnings, ...tracker.warnings],
        statistics,
        compactions: tracker.compactions,
      });
    },
  };
}

/**
 * Reads a whole Claude Code session file from its text. Linear time; browser-safe.
 *
 * @param text - The file's content (JSON Lines).
 * @param options - `strict`: malformed lines are an error instead of warnings.
 * @returns The session tree: records, epochs and compactions, orphans, the path the model saw, sidechains and
 *   abandoned branches, statistics and warnings.
 * @throws `InvalidFormatError` (from `@ctx/core`) when the text has lines but none is a Claude Code record (e.g. a JSON
 *   array), or with `strict` when any line is malformed.
 * @example
 * ```ts
 * const session = parseClaudeCodeSession(await file.text());
 * console.log(session.compactions.length, session.statistics.recordTypes);
 * ```
 */
export function parseClaudeCodeSession(text: string, options: ClaudeCodeReadOptions = {}): ClaudeCodeSession {
  const reader = createClaudeCodeSessionReader(options);
  reader.addText(text);
  return reader.finish();
}
