import { InvalidFormatError, type Conversation, type FormatWarning } from '@ctx/core';
import { createOpenHandsCodec } from './openhands-codec.js';

/** One session of an OpenHands `output.jsonl`, decoded. */
export interface OpenHandsJsonlSession {
  /** The 1-based line the session was read from. */
  readonly line: number;
  readonly conversation: Conversation;
  /** The codec's warnings for this session, each with `line` set. */
  readonly warnings: readonly FormatWarning[];
}

/** Every session of an OpenHands `output.jsonl` that could be read, and the lines that could not. */
export interface OpenHandsJsonlResult {
  readonly sessions: readonly OpenHandsJsonlSession[];
  /** One `malformed` warning per line that is not JSON or not an OpenHands session, with its line number. */
  readonly warnings: readonly FormatWarning[];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Decodes an OpenHands evaluation `output.jsonl` (one session per line) into one conversation per session. A line
 * that is not JSON, or not an OpenHands session, is reported as a `malformed` warning with its line number and the
 * other lines are still read. Blank lines (such as the final newline) are skipped.
 *
 * @param text - The whole file's text.
 * @returns The sessions in file order and the warnings for lines that could not be read.
 * @example
 * ```ts
 * const { sessions, warnings } = decodeOpenHandsJsonl(readFileSync('output.jsonl', 'utf8'));
 * for (const { line, conversation } of sessions) console.log(line, conversation.history.length);
 * ```
 */
export function decodeOpenHandsJsonl(text: string): OpenHandsJsonlResult {
  const codec = createOpenHandsCodec();
  const sessions: OpenHandsJsonlSession[] = [];
  const warnings: FormatWarning[] = [];
  text.split('\n').forEach((rawLine, index) => {
    const line = index + 1;
    const source = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (source.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      warnings.push({
        type: 'malformed',
        line,
        message: `Line ${line} is not valid JSON (${messageOf(error)}); skipped it`,
      });
      return;
    }
    try {
      const decoded = codec.decode(value);
      const sessionWarnings = decoded.warnings.map((warning) => ({ ...warning, line }));
      sessions.push({ line, conversation: decoded.conversation, warnings: sessionWarnings });
    } catch (error) {
      if (!InvalidFormatError.isInstance(error)) throw error;
      const where = error.issues.map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`).join('; ');
      warnings.push({
        type: 'malformed',
        line,
        message: `Line ${line} is not an OpenHands session (${where}); skipped it`,
      });
    }
  });
  return { sessions, warnings };
}
