import { knownClaudeCodeRecordTypes } from './claude-code-record.js';

/**
 * What could still be read from a line that is not valid JSON (a truncated write, a disk error, an editor accident):
 * the record's identity and a short description of what it held. Every field is a best guess from the raw text and
 * is only trusted where the rest of the file confirms it (a salvaged `uuid` must be the parent another record names).
 */
export interface MalformedLineSalvage {
  /** The record type, when a known type appears as a top-level `"type"` value. */
  readonly type?: string;
  /** The record's own uuid (`,"uuid":"…"`, which Claude Code writes after the message). */
  readonly uuid?: string;
  /** Its parent: a uuid, `null` for a root, undefined when unreadable. Claude Code writes `parentUuid` first. */
  readonly parentUuid?: string | null;
  /** What the line held, for a person: `a user message ("Fix the failing test…")`, `a tool call (Read)`, …. */
  readonly description: string;
}

const maximumPreviewLength = 60;

/** The first JSON string value after `key`, decoded, or undefined when the line ends inside it or it is not a string. */
function readStringAfter(text: string, key: string): string | undefined {
  const match = new RegExp(`"${key}":"((?:[^"\\\\]|\\\\.)*)"`).exec(text) ?? new RegExp(`"${key}":"((?:[^"\\\\]|\\\\.)*)`).exec(text);
  if (match === null) return undefined;
  let raw = match[1] as string;
  // A line cut inside an escape sequence leaves a dangling backslash (or a partial \u escape).
  raw = raw.replace(/\\u[0-9a-fA-F]{0,3}$/, '').replace(/(?<!\\)\\$/, '');
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

function preview(value: string): string {
  const oneLine = value.replace(/\s+/g, ' ').trim();
  return oneLine.length > maximumPreviewLength ? `${oneLine.slice(0, maximumPreviewLength)}…` : oneLine;
}

function readRecordType(text: string): string | undefined {
  for (const match of text.matchAll(/"type":"([a-z_-]+)"/g)) {
    const type = match[1] as string;
    if (knownClaudeCodeRecordTypes.has(type)) return type;
  }
  return undefined;
}

function describe(text: string, type: string | undefined): string {
  const toolName = /"type":"tool_use","id":"[^"]*","name":"([^"]+)"/.exec(text)?.[1];
  const resultFor = /"tool_use_id":"([^"]+)"/.exec(text)?.[1];
  if (type === 'assistant' || (type === undefined && text.includes('"role":"assistant"'))) {
    if (toolName !== undefined) return `an assistant tool call (${toolName})`;
    const words = readStringAfter(text, 'text');
    return words === undefined ? 'an assistant message' : `an assistant message ("${preview(words)}")`;
  }
  if (type === 'user' || (type === undefined && text.includes('"role":"user"'))) {
    if (resultFor !== undefined) return `a tool result (for ${resultFor})`;
    const words = /"role":"user","content":"/.test(text) ? readStringAfter(text, 'content') : readStringAfter(text, 'text');
    return words === undefined ? 'a user message' : `a user message ("${preview(words)}")`;
  }
  if (type !== undefined) return `a ${type} record`;
  return 'a record that could not be identified';
}

/**
 * Reads what it can from a malformed Claude Code line. Never throws; an unreadable line yields only a description.
 *
 * @param text - The raw line, without its line break.
 * @returns The salvaged type, uuid, parent and a description.
 */
export function salvageMalformedLine(text: string): MalformedLineSalvage {
  const type = readRecordType(text);
  const uuid = /,"uuid":"([0-9A-Za-z_-]+)"/.exec(text)?.[1];
  const parent = /^\s*\{\s*"parentUuid":(?:null|"([0-9A-Za-z_-]+)")/.exec(text);
  const salvage: { -readonly [Key in keyof MalformedLineSalvage]: MalformedLineSalvage[Key] } = {
    description: describe(text, type),
  };
  if (type !== undefined) salvage.type = type;
  if (uuid !== undefined) salvage.uuid = uuid;
  if (parent !== null) salvage.parentUuid = parent[1] ?? null;
  return salvage;
}
