import type { FormatWarning } from '@ctx/core';
import type { CliIo } from './cli-io.js';
import { escapeForTerminal } from './terminal-text.js';

/** A transcript as far as its input warnings go: its label and what the reader reported. */
export interface TranscriptWarnings {
  /** The file, plus `#<line>` when the file holds several conversations. */
  readonly label: string;
  readonly warnings: readonly FormatWarning[];
}

/** One input warning as `--json` prints it: every key present, `null` where the reader gave no line or path. */
export interface InputWarningJson {
  readonly type: FormatWarning['type'];
  /** 1-based line of the input, for line-based formats. */
  readonly line: number | null;
  readonly message: string;
  /** Where in a JSON input, e.g. `messages[3]`. */
  readonly path: string | null;
}

/** Options of {@link formatInputWarnings}. */
export interface FormatInputWarningsOptions {
  /**
   * At most this many malformed lines are listed, then `… and N more (--json lists all)`; `undefined` lists all.
   * @default 20
   */
  readonly malformedLimit?: number | undefined;
  /**
   * `summary`: lossy, unsupported and other warnings as one line per type with a count and the first example (what
   * `compare` and `compress` print). `all`: every one of them, with its line or path (what `inspect` prints).
   * @default 'summary'
   */
  readonly others?: 'summary' | 'all';
  /**
   * Put before every line; with an indent the file name is left out of the headings (the caller already named it).
   * @default ''
   */
  readonly indent?: string;
}

const integer = new Intl.NumberFormat('en-US');
/** A terminal line stays readable; the whole message is in `--json`. */
const MAX_MESSAGE_LENGTH = 500;
const otherTypes = ['lossy', 'unsupported', 'other'] as const;

/** Converts the reader's warnings to their `--json` form, all of them, in order. */
export function toInputWarningsJson(warnings: readonly FormatWarning[]): InputWarningJson[] {
  return warnings.map((warning) => ({ type: warning.type, line: warning.line ?? null, message: warning.message, path: warning.path ?? null }));
}

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${integer.format(count)} ${count === 1 ? singular : pluralForm}`;
}

/** The message as one escaped terminal line, with its line or path in front unless the message already says it. */
function describeWarning(warning: FormatWarning): string {
  const where = warning.line !== undefined ? `line ${warning.line}` : warning.path;
  const located = where === undefined || warning.message.startsWith(`${where}:`) ? warning.message : `${where}: ${warning.message}`;
  const oneLine = escapeForTerminal(located);
  return oneLine.length > MAX_MESSAGE_LENGTH ? `${oneLine.slice(0, MAX_MESSAGE_LENGTH)}… (--json has the whole message)` : oneLine;
}

/**
 * The text lines that tell a user what the reader could not read in one transcript: a heading with the number of
 * malformed lines, then one line per malformed line (`  line 12: …`, capped), then the lossy, unsupported and other
 * warnings (summarized or listed). Every line is escaped for the terminal. Empty when the reader reported nothing.
 *
 * @example
 * ```text
 * ⚠ session.jsonl: 3 malformed lines skipped
 *   line 12: not valid JSON (…); the line was skipped
 *   …
 * ⚠ session.jsonl: 2 lossy warnings, e.g. line 14: …
 * ```
 */
export function formatInputWarnings(transcript: TranscriptWarnings, options: FormatInputWarningsOptions = {}): string[] {
  const indent = options.indent ?? '';
  const limit = 'malformedLimit' in options ? options.malformedLimit : 20;
  const subject = indent === '' ? `⚠ ${escapeForTerminal(transcript.label)}: ` : `${indent}⚠ `;
  const lines: string[] = [];
  const malformed = transcript.warnings.filter((warning) => warning.type === 'malformed');
  if (malformed.length > 0) {
    lines.push(`${subject}${plural(malformed.length, 'malformed line')} skipped`);
    const shown = limit === undefined ? malformed : malformed.slice(0, limit);
    for (const warning of shown) lines.push(`${indent}  ${describeWarning(warning)}`);
    if (shown.length < malformed.length) lines.push(`${indent}  … and ${integer.format(malformed.length - shown.length)} more (--json lists all)`);
  }
  for (const type of otherTypes) {
    const ofType = transcript.warnings.filter((warning) => warning.type === type);
    const [first] = ofType;
    if (first === undefined) continue;
    if (options.others === 'all') {
      lines.push(`${subject}${plural(ofType.length, `${type} warning`)}`);
      for (const warning of ofType) lines.push(`${indent}  ${describeWarning(warning)}`);
    } else {
      lines.push(`${subject}${plural(ofType.length, `${type} warning`)}${ofType.length === 1 ? ': ' : ', e.g. '}${describeWarning(first)}`);
    }
  }
  return lines;
}

/**
 * Prints {@link formatInputWarnings} for every transcript that has warnings, after a blank line, on stdout: in text
 * mode they are part of the report, next to the figures they qualify.
 */
export function printInputWarnings(transcripts: readonly TranscriptWarnings[], io: CliIo): void {
  const lines = transcripts.flatMap((transcript) => formatInputWarnings(transcript));
  if (lines.length > 0) io.stdout(['', ...lines].join('\n'));
}

/**
 * With `--json` the warnings are in the JSON on stdout; so that a run whose stdout goes to a file is still not
 * silent about a broken input, one line per transcript with malformed lines goes to stderr.
 */
export function noteMalformedLinesOnStderr(transcripts: readonly TranscriptWarnings[], io: CliIo): void {
  for (const transcript of transcripts) {
    const lines = transcript.warnings.filter((warning) => warning.type === 'malformed').map((warning) => warning.line);
    if (lines.length === 0) continue;
    const numbers = lines.filter((line): line is number => line !== undefined);
    const where = numbers.length === 0 ? '' : ` (line${numbers.length === 1 ? '' : 's'} ${numbers.slice(0, 10).join(', ')}${numbers.length > 10 ? ', …' : ''})`;
    io.stderr(escapeForTerminal(`ctx: ${transcript.label}: ${plural(lines.length, 'malformed line')} skipped${where}; "warnings" in the JSON says what was lost`));
  }
}

/**
 * `--strict`: prints one line on stderr per transcript with malformed lines (how many, the first line number, the
 * fix) and says whether there were any; the caller then exits 1 without compressing or writing anything.
 *
 * @returns True when at least one transcript has a malformed line.
 */
export function refuseMalformedLines(transcripts: readonly TranscriptWarnings[], io: CliIo): boolean {
  let refused = false;
  for (const transcript of transcripts) {
    const malformed = transcript.warnings.filter((warning) => warning.type === 'malformed');
    if (malformed.length === 0) continue;
    refused = true;
    const first = malformed.find((warning) => warning.line !== undefined)?.line;
    io.stderr(
      escapeForTerminal(
        `ctx: ${transcript.label}: expected no malformed lines with --strict, found ${plural(malformed.length, 'malformed line')}${first === undefined ? '' : ` (first at line ${first})`}; repair the file or run without --strict`,
      ),
    );
  }
  return refused;
}
