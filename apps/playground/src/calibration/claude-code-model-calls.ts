import { getEntryGenerator, type Conversation, type EntryUsage, type HistoryEntry, type TokenCounter } from '@ctx/core';
import { claudeCodeCompactionGenerator } from '@ctx/format-claude-code';

/** One model call of a recorded Claude Code session: what the provider counted and what we count. */
export interface RecordedModelCall {
  /** The API message id (`message.id`): the records sharing it are one call. */
  readonly messageId: string;
  /** The model that answered, as recorded. */
  readonly model?: string;
  /** The provider's input tokens for the request: `input_tokens + cache_creation_input_tokens + cache_read_input_tokens`. */
  readonly actualTokens: number;
  /** Our count of the history sent with the call (every entry of its epoch before the response). */
  readonly estimatedTokens: number;
  /** How many compactions happened before the call (0 before the first): the history sent starts at the last one's summary. */
  readonly epoch: number;
  /** Index of the call's `ai` entry in the conversation's history. */
  readonly entryIndex: number;
}

/** The calls of a session, and the `ai` entries that were left out. */
export interface RecordedModelCalls {
  readonly calls: readonly RecordedModelCall[];
  /**
   * `ai` entries that are not a measurable call: no message id or usage, a zero input (Claude Code's `<synthetic>`
   * messages), a message id already counted, or an empty history before it.
   */
  readonly skipped: number;
}

/** Whether `entry` is the summary Claude Code sent in place of the history after a compaction. */
export function isCompactionSummary(entry: HistoryEntry): boolean {
  return getEntryGenerator(entry) === claudeCodeCompactionGenerator;
}

function inputTokens(usage: EntryUsage | undefined): number {
  if (usage === undefined) return 0;
  return (usage.inputTokens ?? 0) + (usage.cacheWriteTokens ?? 0) + (usage.cacheReadTokens ?? 0);
}

/**
 * Lists the model calls of a Claude Code session converted by `@ctx/format-claude-code` in its `whole-session` view,
 * each with the provider's real input size and our estimate of the request: the tokens `counter` gives the entries
 * that were sent (from the latest compaction summary, or the start, up to the response), counted the way
 * `HistoryService` counts them. The session file records no system prompt or tool definitions, so our estimate
 * leaves them out and the real count includes them.
 *
 * @param conversation - The converted session (`view: 'whole-session'`, so compactions are visible as summaries).
 * @param counter - Counts the entries (its cache makes a second tokenizer pass over the same entries free).
 * @returns The calls in order, and how many `ai` entries were not measurable.
 */
export function listRecordedModelCalls(conversation: Conversation, counter: TokenCounter): RecordedModelCalls {
  const calls: RecordedModelCall[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  let epoch = 0;
  let sentTokens = 0;
  for (const [entryIndex, entry] of conversation.history.entries()) {
    if (isCompactionSummary(entry)) {
      // After a compaction the model is sent the summary and what follows, not the history before it.
      epoch += 1;
      sentTokens = 0;
    }
    if (entry.speaker === 'ai') {
      const messageId = entry.metadata?.id;
      const actualTokens = inputTokens(entry.metadata?.usage);
      if (messageId === undefined || seen.has(messageId) || actualTokens <= 0 || sentTokens < 1) {
        skipped += 1;
      } else {
        seen.add(messageId);
        const model = entry.metadata?.model;
        calls.push({ messageId, ...(model === undefined ? {} : { model }), actualTokens, estimatedTokens: sentTokens, epoch, entryIndex });
      }
    }
    sentTokens += counter.countEntry(entry);
  }
  return { calls, skipped };
}
