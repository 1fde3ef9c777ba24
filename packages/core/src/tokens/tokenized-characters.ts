import type { ContentBlock, TextBlock } from '../history/content-block.js';
import type { ToolDefinition } from '../history/conversation.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { JsonValue } from '../history/json-value.js';

/** What {@link measureTokenizedCharacters} measures besides the entries. */
export interface MeasureTokenizedCharactersOptions {
  /** System instructions, counted as the token counter counts them. */
  readonly system?: readonly TextBlock[];
  /** Tool definitions, counted as the token counter counts them. */
  readonly tools?: readonly ToolDefinition[];
}

function serializedLength(value: JsonValue): number {
  return typeof value === 'string' ? value.length : JSON.stringify(value).length;
}

function blockCharacters(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'thinking':
      return block.thought.length;
    case 'tool_call':
      return block.name.length + serializedLength(block.parameters);
    case 'tool_response':
      return block.toolName.length + serializedLength(block.result);
    case 'media':
      return 0;
  }
}

/**
 * Characters of every text a `TokenCounter` hands its tokenizer to count `entries` (and the system instructions and
 * tool definitions) once, each occurrence counted: text, thinking, tool names, tool parameters and results (JSON
 * serialized when not a string); media is counted without tokenizing. With {@link createCountingTokenizer} it gives
 * "characters tokenized ÷ characters in the session": 1.0 means every text was tokenized exactly once, below 1
 * that repeated texts were counted from the cache, above 1 that some text was tokenized again.
 *
 * @param entries - The entries, e.g. a whole recorded session.
 * @param options - System instructions and tool definitions to include.
 * @returns A number of characters (UTF-16 code units, like `text.length`).
 *
 * @example
 * ```ts
 * const counting = createCountingTokenizer(await createGptTokenizer());
 * // … replay `session` through a HistoryService built on counting.tokenizer …
 * const ratio = counting.stats().characters / measureTokenizedCharacters(session);
 * ```
 */
export function measureTokenizedCharacters(
  entries: readonly HistoryEntry[],
  options: MeasureTokenizedCharactersOptions = {},
): number {
  let total = 0;
  for (const entry of entries) for (const block of entry.blocks) total += blockCharacters(block);
  for (const block of options.system ?? []) total += block.text.length;
  for (const tool of options.tools ?? []) {
    total += tool.name.length + (tool.description ?? '').length;
    if (tool.inputSchema !== undefined) total += serializedLength(tool.inputSchema);
  }
  return total;
}
