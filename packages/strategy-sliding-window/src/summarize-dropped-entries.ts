import type { HistoryEntry, Summarizer, Todo, TokenCounter } from '@ctx/core';

/** Share of the context window the summarizer's input may take (spec 002 §6.2 `truncateForSummarizer`). */
const summarizerInputShare = 0.8;

/** Options of {@link summarizeDroppedEntries}. */
export interface SummarizeDroppedEntriesOptions {
  readonly summarizer: Summarizer;
  /** The dropped part of the history, oldest first. */
  readonly entries: readonly HistoryEntry[];
  readonly counter: TokenCounter;
  /** The model's context window; the input is trimmed to 80% of it, oldest entries first. */
  readonly contextLimit: number;
  /** Upper bound for the summary, in tokens. */
  readonly maxOutputTokens: number;
  readonly todos?: readonly Todo[];
  readonly signal?: AbortSignal;
}

/** What the summarizer produced, or why it produced nothing usable. */
export type DroppedEntriesSummary =
  | { readonly outcome: 'summarized'; readonly text: string; readonly entriesSummarized: number }
  | { readonly outcome: 'failed'; readonly message: string };

/** The instructions for the summary: sections a colleague taking over needs, and the task list to carry over. */
function summaryInstructions(maxOutputTokens: number, todos: readonly Todo[] | undefined): string {
  const lines = [
    'Summarize the conversation entries you are given. They are being removed from the context window; this summary is',
    'all that will remain of them, so include everything needed to continue without asking the user to repeat anything.',
    'If the entries start with an earlier summary, fold it into the new one.',
    '',
    'Use these sections:',
    '## Current state — the request being worked on, what is done, what is in progress.',
    '## Key information — facts, file paths, identifiers, commands, errors and their causes, user preferences.',
    '## Decisions — what was decided and why, what was ruled out.',
    '## Next steps — exactly what to do next.',
  ];
  if (todos !== undefined && todos.length > 0) {
    lines.push('', 'Include this task list, with its statuses, in a "## Todo list" section:');
    for (const todo of todos) lines.push(`- [${todo.status}] ${todo.content}`);
  }
  // About 0.75 words per token.
  lines.push('', `Write in the language of the conversation, in at most ${Math.max(1, Math.floor(maxOutputTokens * 0.75))} words.`);
  return lines.join('\n');
}

/**
 * Hands the dropped entries to the application's summarizer (spec 002 sliding window with an LLM). The input is
 * trimmed first so the summarizer's own request fits: oldest entries go until the rest takes at most 80% of the
 * context window, keeping at least two (spec 002 §6.2). A summarizer that throws or answers with empty text is
 * reported as `failed` so the caller can fall back to the excerpt summary (spec 002 §6.3); an abort is rethrown.
 *
 * @param options - The summarizer, the entries, the window and the output bound.
 * @returns The summary text, or why there is none.
 * @throws The abort reason when `options.signal` is aborted.
 * @example
 * ```ts
 * const summary = await summarizeDroppedEntries({ summarizer, entries: history.slice(0, split), counter,
 *   contextLimit: 200_000, maxOutputTokens: 8_000 });
 * ```
 */
export async function summarizeDroppedEntries(options: SummarizeDroppedEntriesOptions): Promise<DroppedEntriesSummary> {
  const { entries, counter } = options;
  const inputBudget = Math.floor(options.contextLimit * summarizerInputShare);
  let first = 0;
  let tokens = counter.countEntries(entries);
  while (entries.length - first > 2 && tokens > inputBudget) {
    tokens -= counter.countEntry(entries[first] as HistoryEntry);
    first += 1;
  }
  const input = first === 0 ? entries : entries.slice(first);
  try {
    const result = await options.summarizer.summarize({
      entries: input,
      instructions: summaryInstructions(options.maxOutputTokens, options.todos),
      maxOutputTokens: options.maxOutputTokens,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const text = result.text.trim();
    if (text === '') return { outcome: 'failed', message: `the summarizer "${options.summarizer.name}" returned an empty summary` };
    return { outcome: 'summarized', text, entriesSummarized: input.length };
  } catch (error) {
    options.signal?.throwIfAborted();
    return {
      outcome: 'failed',
      message: `the summarizer "${options.summarizer.name}" failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
