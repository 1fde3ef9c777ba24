import { markGeneratedEntry, type HistoryEntry, type Todo } from '@ctx/core';

/** What {@link createSummaryEntry} puts around the summary, and the continuation it appends. */
export interface SummaryEntryOptions {
  /** The strategy that wrote it: recorded with `markGeneratedEntry`. */
  readonly generator: string;
  /**
   * Add the continuation (spec 002 §5.3): the conversation was compacted, the user's current request quoted, the
   * todos, and where the full transcript is. For strategies that replace the whole conversation (one-shot).
   */
  readonly continuation?: {
    /** The latest text the user typed, quoted so the agent goes on without asking again. */
    readonly latestUserRequest?: string;
    readonly activeTodos?: readonly Todo[];
    readonly transcriptPath?: string;
  };
  /** Say the summary is mechanical (the model call failed) so the agent knows to check the transcript. */
  readonly fallback?: boolean;
}

function continuationText(continuation: NonNullable<SummaryEntryOptions['continuation']>): string {
  const lines = ['[System: The conversation was compacted because it exceeded the context window. The summary above contains the prior context.'];
  if (continuation.latestUserRequest !== undefined && continuation.latestUserRequest.trim() !== '') {
    lines.push(`The user's current request is:\n\`\`\`\n${continuation.latestUserRequest.trim()}\n\`\`\``);
  }
  if (continuation.activeTodos !== undefined && continuation.activeTodos.length > 0) {
    lines.push(`Active todo list:\n${continuation.activeTodos.map((todo) => `- [${todo.status}] ${todo.content}`).join('\n')}`);
  }
  if (continuation.transcriptPath !== undefined) {
    lines.push(`The full transcript is at ${continuation.transcriptPath}; read it if you need a detail the summary lacks.`);
  }
  lines.push('Continue working on this request without asking the user to repeat anything.]');
  return lines.join('\n');
}

/**
 * The entry that takes the place of summarized entries: a `human` entry holding the summary between markers
 * (`[Previous conversation summary]` … `[End of summary — conversation continues below]`), and, for a strategy that
 * replaced the whole conversation, a second text block with the continuation. Marked with `markGeneratedEntry` so
 * reports and retention checks never count it as user-typed text.
 *
 * @param summary - The summary text.
 * @param options - Who wrote it, the continuation, whether it is a fallback.
 * @returns The new entry.
 * @example
 * ```ts
 * const entry = createSummaryEntry(text, { generator: 'one-shot', continuation: { latestUserRequest, transcriptPath } });
 * ```
 */
export function createSummaryEntry(summary: string, options: SummaryEntryOptions): HistoryEntry {
  const heading = options.fallback === true ? '[Previous conversation summary (mechanical: the summarizer was unavailable)]' : '[Previous conversation summary]';
  const blocks: HistoryEntry['blocks'][number][] = [
    { type: 'text', text: `${heading}\n${summary.trim()}\n[End of summary — conversation continues below]` },
  ];
  if (options.continuation !== undefined) blocks.push({ type: 'text', text: continuationText(options.continuation) });
  return markGeneratedEntry({ speaker: 'human', blocks }, options.generator);
}
