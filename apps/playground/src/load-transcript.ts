import { readFile } from 'node:fs/promises';
import { InvalidHistoryError, parseConversation, type Conversation } from '@ctx/core';

/** A transcript could not be read; the message is one line for the terminal. */
export class TranscriptLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TranscriptLoadError';
  }
}

/**
 * Reads a transcript file into a conversation. Supported today: ctx.conversation.v1 JSON (what `ctx` writes and the
 * demo uses). Provider formats and Claude Code sessions are read by the format packages as they land.
 *
 * @throws {@link TranscriptLoadError} with one line saying what was expected and what was found.
 */
export async function loadTranscript(path: string): Promise<Conversation> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TranscriptLoadError(
      code === 'ENOENT' ? `${path}: no such file` : `${path}: cannot read (${code ?? String(error)})`,
      { cause: error },
    );
  }
  if (path.endsWith('.jsonl')) {
    throw new TranscriptLoadError(
      `${path}: JSON Lines transcripts (Claude Code sessions, OpenHands) are not readable yet; expected a ctx.conversation.v1 JSON file`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new TranscriptLoadError(`${path}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  if (typeof data !== 'object' || data === null || (data as { format?: unknown }).format !== 'ctx.conversation.v1') {
    throw new TranscriptLoadError(
      `${path}: expected a ctx.conversation.v1 JSON file (an object with "format": "ctx.conversation.v1"); other formats are not readable yet`,
    );
  }
  try {
    return parseConversation(data);
  } catch (error) {
    if (!InvalidHistoryError.isInstance(error)) throw error;
    const [first] = error.issues;
    const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problems)` : '';
    throw new TranscriptLoadError(`${path}: ${first?.path ?? ''}: ${first?.message ?? error.message}${more}`, {
      cause: error,
    });
  }
}
