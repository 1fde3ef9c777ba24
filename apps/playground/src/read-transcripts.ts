import { readFile, stat } from 'node:fs/promises';
import {
  InvalidFormatError,
  InvalidHistoryError,
  parseConversation,
  type Conversation,
  type ConversationDecoder,
  type FormatWarning,
} from '@ctx/core';
import { aiSdkCodec } from '@ctx/format-ai-sdk';
import { anthropicMessagesCodec } from '@ctx/format-anthropic';
import {
  convertClaudeCodeSession,
  parseClaudeCodeSession,
  type ClaudeCodeSession,
} from '@ctx/format-claude-code';
import { geminiCodec } from '@ctx/format-gemini';
import { openAIChatCodec } from '@ctx/format-openai';
import { decodeOpenHandsJsonl, decodeTrajectory, detectTrajectoryFormat } from '@ctx/format-trajectories';
import { listTranscriptFiles } from './corpus.js';
import { describeDegenerateContent } from './degenerate-content.js';
import { escapeForTerminal } from './terminal-text.js';
import { TranscriptLoadError } from './transcript-load-error.js';
import { findInvalidUtf8 } from './utf8-text.js';

/** Every transcript format the playground reads. */
export type TranscriptFormat =
  | 'ctx'
  | 'claude-code'
  | 'anthropic-messages'
  | 'openai-chat'
  | 'gemini-content'
  | 'ai-sdk-model-messages'
  | 'mini-swe-agent'
  | 'swe-agent'
  | 'openhands'
  | 'gemini-cli';

/** Which part of a session to read: everything, or what the model saw at the end (Claude Code's last epoch). */
export type TranscriptView = 'all' | 'last';

/** One conversation read from a file (a file may hold several, e.g. an OpenHands output.jsonl). */
export interface LoadedTranscript {
  readonly file: string;
  /** The file, plus `#<line>` when the file holds several sessions. */
  readonly label: string;
  readonly format: TranscriptFormat;
  readonly conversation: Conversation;
  readonly warnings: readonly FormatWarning[];
  /** The parsed Claude Code session, for inspection. */
  readonly claudeCode?: ClaudeCodeSession;
}

export { TranscriptLoadError } from './transcript-load-error.js';

/** Provider message arrays are tried in this order; their strict schemas rarely accept each other's messages. */
const messageCodecs: readonly [TranscriptFormat, ConversationDecoder][] = [
  ['anthropic-messages', anthropicMessagesCodec],
  ['openai-chat', openAIChatCodec],
  ['ai-sdk-model-messages', aiSdkCodec],
];

function firstLine(error: unknown): string {
  if (InvalidFormatError.isInstance(error) || InvalidHistoryError.isInstance(error)) {
    const [issue] = error.issues;
    const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problems)` : '';
    return `${issue?.path === '' || issue === undefined ? '' : `${issue.path}: `}${issue?.message ?? error.message}${more}`;
  }
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

function decodeJsonValue(file: string, value: unknown): LoadedTranscript {
  const loaded = (format: TranscriptFormat, result: { conversation: Conversation; warnings: readonly FormatWarning[] }) => ({
    file,
    label: file,
    format,
    ...result,
  });
  const object = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  if (object?.format === 'ctx.conversation.v1') return loaded('ctx', { conversation: parseConversation(value), warnings: [] });
  if (detectTrajectoryFormat(value) !== undefined) {
    const { format, conversation, warnings } = decodeTrajectory(value);
    return loaded(format, { conversation, warnings });
  }
  if (object !== undefined && Array.isArray(object.contents)) return loaded('gemini-content', geminiCodec.decode(value));
  const request = Array.isArray(value) ? { messages: value } : value;
  if (typeof request === 'object' && request !== null && Array.isArray((request as { messages?: unknown }).messages)) {
    const failures: string[] = [];
    let fallback: LoadedTranscript | undefined;
    for (const [format, codec] of messageCodecs) {
      try {
        const result = loaded(format, codec.decode(request));
        // A codec that had to keep parts opaque may be reading another format's messages: prefer a clean decode.
        if (!result.warnings.some((warning) => warning.type === 'unsupported')) return result;
        fallback ??= result;
      } catch (error) {
        if (!InvalidFormatError.isInstance(error)) throw error;
        failures.push(`${format}: ${firstLine(error)}`);
      }
    }
    if (fallback !== undefined) return fallback;
    throw new TranscriptLoadError(`${file}: a messages array, but not a valid one in any format (${failures.join('; ')})`);
  }
  throw new TranscriptLoadError(
    `${file}: unknown format; expected ctx.conversation.v1, a trajectory (mini-swe-agent, SWE-agent, OpenHands, gemini-cli), Gemini contents, or Anthropic / OpenAI / AI SDK messages`,
  );
}

function readJsonLines(file: string, text: string, view: TranscriptView): LoadedTranscript[] {
  const first = text.split('\n').find((line) => line.trim() !== '');
  let probe: unknown;
  try {
    probe = first === undefined ? undefined : JSON.parse(first);
  } catch {
    probe = undefined;
  }
  const record = typeof probe === 'object' && probe !== null ? (probe as Record<string, unknown>) : {};
  if ('instance_id' in record && 'history' in record) {
    const { sessions, warnings } = decodeOpenHandsJsonl(text);
    return sessions.map((session, index) => ({
      file,
      label: `${file}#${session.line}`,
      format: 'openhands' as const,
      conversation: session.conversation,
      warnings: index === 0 ? [...warnings, ...session.warnings] : session.warnings,
    }));
  }
  // Claude Code is the JSON Lines format we know best; it reports its own malformed lines.
  const session = parseClaudeCodeSession(text);
  const { conversation, warnings } = convertClaudeCodeSession(session, { view: view === 'last' ? 'last-epoch' : 'whole-session' });
  return [{ file, label: file, format: 'claude-code', conversation, warnings, claudeCode: session }];
}

/**
 * Reads one transcript file in any supported format, detected from its content: ctx.conversation.v1, Claude Code
 * sessions (JSON Lines), OpenHands output.jsonl, mini-swe-agent / SWE-agent / gemini-cli trajectories, Gemini
 * `contents`, and Anthropic / OpenAI / AI SDK message arrays.
 *
 * @throws {@link TranscriptLoadError} with one line saying what was expected and what was found.
 */
export async function readTranscriptFile(file: string, options: { readonly view?: TranscriptView } = {}): Promise<LoadedTranscript[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : `cannot read (${code ?? String(error)})`;
    throw new TranscriptLoadError(`${file}: ${reason}`, { cause: error });
  }
  const invalid = findInvalidUtf8(bytes);
  if (invalid !== undefined) {
    throw new TranscriptLoadError(
      `${file}: not UTF-8 text (invalid byte 0x${(bytes[invalid] as number).toString(16).padStart(2, '0')} at offset ${invalid}); expected a JSON or JSON Lines transcript`,
    );
  }
  const text = bytes.toString('utf8');
  const degenerate = describeDegenerateContent(text, bytes.length);
  if (degenerate !== undefined) throw new TranscriptLoadError(`${file}: ${degenerate}`);
  try {
    if (file.endsWith('.jsonl')) return readJsonLines(file, text, options.view ?? 'all');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      // The parser quotes the offending text, which may hold control characters: escape them.
      throw new TranscriptLoadError(`${file}: not valid JSON (${escapeForTerminal((error as Error).message)})`, { cause: error });
    }
    return [decodeJsonValue(file, value)];
  } catch (error) {
    if (error instanceof TranscriptLoadError) throw error;
    if (InvalidFormatError.isInstance(error) || InvalidHistoryError.isInstance(error)) {
      throw new TranscriptLoadError(`${file}: ${firstLine(error)}`, { cause: error });
    }
    throw error;
  }
}

/**
 * Reads every transcript under the given paths: files as they are, directories recursively (`.json`, `.jsonl`,
 * `.traj`; a `manifest.json` is skipped).
 *
 * @throws {@link TranscriptLoadError} for a path that does not exist or a file that cannot be read.
 */
export async function readTranscripts(
  paths: readonly string[],
  options: { readonly view?: TranscriptView } = {},
): Promise<LoadedTranscript[]> {
  const transcripts: LoadedTranscript[] = [];
  for (const path of paths) {
    const info = await stat(path).catch((error: unknown) => {
      throw new TranscriptLoadError(`${path}: no such file or directory`, { cause: error });
    });
    const files = info.isDirectory() ? listTranscriptFiles(path) : [path];
    if (info.isDirectory() && files.length === 0) {
      throw new TranscriptLoadError(`${path}: no transcript files (.json, .jsonl, .traj) in this directory`);
    }
    for (const file of files) transcripts.push(...(await readTranscriptFile(file, options)));
  }
  return transcripts;
}
