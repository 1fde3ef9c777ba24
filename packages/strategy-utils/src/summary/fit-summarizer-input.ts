import { cutOversizedToolResults, type HistoryEntry, type TokenCounter } from '@ctx/core';

/** What {@link fitSummarizerInput} had to do to fit. */
export interface FittedSummarizerInput {
  /** The entries to send, oldest first. */
  readonly entries: readonly HistoryEntry[];
  /** Tool results shortened to their beginning and end. */
  readonly toolResultsCut: number;
  /** Oldest entries left out. */
  readonly entriesDropped: number;
  /** Text blocks of the one entry left that were shortened (an entry alone over the limit). */
  readonly textsCut: number;
  readonly tokens: number;
}

function cutText(text: string, keepCharacters: number): string {
  if (text.length <= keepCharacters) return text;
  const head = Math.ceil(keepCharacters * 0.6);
  const tail = Math.max(0, keepCharacters - head);
  return `${text.slice(0, head)}\n[… ${text.length - head - tail} characters cut to fit the summarizer …]\n${tail === 0 ? '' : text.slice(-tail)}`;
}

/**
 * Keeps a summary request within the summarizer's window (spec 002 §6.2): first the largest tool outputs are cut to
 * their beginning and end (with a marker), then the oldest entries are dropped (the most recent context is the most
 * valuable), and if a single entry is still over the limit its longest texts are cut the same way. A single
 * 400k-token tool output still yields a request that fits.
 *
 * @param entries - The entries to summarize, oldest first.
 * @param options - `tokenCounter` and `maxTokens` (what the entries may take of the request).
 * @returns The entries to send and what was cut; the input is not changed.
 * @example
 * ```ts
 * const fitted = fitSummarizerInput(middle, { tokenCounter, maxTokens: Math.floor(window * 0.8) - instructionTokens });
 * ```
 */
export function fitSummarizerInput(
  entries: readonly HistoryEntry[],
  options: { readonly tokenCounter: TokenCounter; readonly maxTokens: number },
): FittedSummarizerInput {
  const { tokenCounter: counter } = options;
  const maxTokens = Math.max(1, Math.floor(options.maxTokens));
  let tokens = counter.countEntries(entries);
  if (tokens <= maxTokens) return { entries, toolResultsCut: 0, entriesDropped: 0, textsCut: 0, tokens };

  const cut = cutOversizedToolResults(entries, { tokenCounter: counter, maxHistoryTokens: maxTokens });
  let fitted: readonly HistoryEntry[] = cut.history;
  tokens = counter.countEntries(fitted);
  let dropped = 0;
  while (tokens > maxTokens && fitted.length - dropped > 1) {
    tokens -= counter.countEntry(fitted[dropped] as HistoryEntry);
    dropped += 1;
  }
  fitted = fitted.slice(dropped);
  let textsCut = 0;
  if (tokens > maxTokens) {
    const [only] = fitted as [HistoryEntry];
    let entry = only;
    // Shrink the texts (and structured results) until the entry fits; each round keeps a smaller share.
    for (let share = 0.8; counter.countEntry(entry) > maxTokens && share > 0.001; share *= 0.7) {
      textsCut = 0;
      entry = {
        ...only,
        blocks: only.blocks.map((block) => {
          if (block.type === 'text' && block.text.length > 200) {
            textsCut += 1;
            return { ...block, text: cutText(block.text, Math.floor(block.text.length * share)) };
          }
          if (block.type === 'tool_call') {
            const input = JSON.stringify(block.parameters);
            if (input.length > 200) {
              textsCut += 1;
              return { ...block, parameters: { cutToFitTheSummarizer: cutText(input, Math.floor(input.length * share)) } };
            }
          }
          if (block.type === 'tool_response') {
            const text = typeof block.result === 'string' ? block.result : JSON.stringify(block.result);
            if (text.length > 200) {
              textsCut += 1;
              return { ...block, result: cutText(text, Math.floor(text.length * share)) };
            }
          }
          return block;
        }),
      };
    }
    fitted = [entry];
    tokens = counter.countEntry(entry);
  }
  return { entries: fitted, toolResultsCut: cut.cuts.length, entriesDropped: dropped, textsCut, tokens };
}
