import type { HistoryEntry, TokenCounter } from '@ctx/core';

/** Characters kept of each message (spec 002 §6.3). */
const charactersPerMessage = 200;

function describeEntry(entry: HistoryEntry): string {
  const parts: string[] = [];
  for (const block of entry.blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'tool_call':
        parts.push(`[called ${block.name}]`);
        break;
      case 'tool_response':
        parts.push(`[${block.toolName} ${block.isError === true ? 'failed' : 'returned a result'}]`);
        break;
      case 'thinking':
        break;
      default:
        parts.push(`[${block.type}]`);
    }
  }
  const text = parts.join(' ').replace(/\s+/g, ' ').trim();
  return text.length > charactersPerMessage ? `${text.slice(0, charactersPerMessage)}…` : text;
}

/**
 * The mechanical summary an LLM strategy uses when its summarizer fails (spec 002 §6.3): one line per entry — who
 * spoke and the first 200 characters of what they said, tool calls and results named, thinking left out — so the
 * session survives a summarizer outage with its gist. When the lines are over `maxTokens`, the oldest are dropped
 * first (the most recent context is the most valuable) and a line says how many.
 *
 * @param entries - The entries the summary replaces, oldest first.
 * @param options - `tokenCounter` and `maxTokens`, the size the summary must stay within.
 * @returns The summary text (never empty: an empty input gives a one-line note).
 * @example
 * ```ts
 * const text = buildFallbackSummary(middle, { tokenCounter: context.tokenCounter, maxTokens: 2_000 });
 * ```
 */
export function buildFallbackSummary(
  entries: readonly HistoryEntry[],
  options: { readonly tokenCounter: TokenCounter; readonly maxTokens: number },
): string {
  const lines: string[] = [];
  for (const entry of entries) {
    const text = describeEntry(entry);
    if (text !== '') lines.push(`${entry.speaker}: ${text}`);
  }
  if (lines.length === 0) return `[${entries.length} earlier entries with no text]`;
  let tokens = lines.reduce((sum, line) => sum + options.tokenCounter.countText(line) + 1, 0);
  let dropped = 0;
  while (dropped < lines.length - 1 && tokens > options.maxTokens) {
    tokens -= options.tokenCounter.countText(lines[dropped] as string) + 1;
    dropped += 1;
  }
  const kept = lines.slice(dropped);
  if (dropped > 0) kept.unshift(`[${dropped} older entries left out]`);
  let text = kept.join('\n');
  // A single line can still be over the limit when maxTokens is tiny: keep its beginning.
  while (options.tokenCounter.countText(text) > options.maxTokens && text.length > 40) text = `${text.slice(0, Math.floor(text.length * 0.8))}…`;
  return text;
}
