import type { ContentBlock, TextBlock } from '../history/content-block.js';
import type { ToolDefinition } from '../history/conversation.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { JsonValue } from '../history/json-value.js';
import type { Tokenizer } from './tokenizer.js';

/** How entries are turned into token estimates. */
export interface TokenCountingOptions {
  /**
   * Tokens added per entry for the role and message framing providers add around each message.
   * @default 3
   */
  readonly entryOverheadTokens?: number;
  /**
   * Tokens counted for each media block (image, document). Providers bill images by size; this is a ceiling-style
   * estimate for a typical screenshot.
   * @default 1600
   */
  readonly mediaTokens?: number;
}

/**
 * Counts tokens of history entries, system instructions and tool definitions with one tokenizer, caching per entry.
 *
 * The cache is keyed by entry identity: entries are immutable values, so an entry that is still the same object
 * is never tokenized again. Replacing an entry (a density replacement) counts only the replacement.
 */
export interface TokenCounter {
  readonly tokenizer: Tokenizer;
  /** Tokens in a string. Nonsensical tokenizer output (negative, NaN) counts as 0 (spec 000 ERR-022). */
  countText(text: string): number;
  /**
   * Tokens of one entry: text, thinking, tool-call names and parameters, tool results (spec 002 Proposal 4), media
   * and the per-entry overhead. Cached.
   */
  countEntry(entry: HistoryEntry): number;
  /** Sum of {@link TokenCounter.countEntry} over `entries`. */
  countEntries(entries: readonly HistoryEntry[]): number;
  /** Tokens of system instructions and tool definitions: the part of every request strategies leave alone. */
  countOverhead(system: readonly TextBlock[] | undefined, tools: readonly ToolDefinition[] | undefined): number;
}

function serialize(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Creates a {@link TokenCounter} over a tokenizer.
 *
 * @example
 * ```ts
 * const counter = createTokenCounter(await createGptTokenizer());
 * counter.countEntry({ speaker: 'human', blocks: [{ type: 'text', text: 'hello' }] });
 * ```
 */
export function createTokenCounter(tokenizer: Tokenizer, options: TokenCountingOptions = {}): TokenCounter {
  const entryOverheadTokens = options.entryOverheadTokens ?? 3;
  const mediaTokens = options.mediaTokens ?? 1600;
  const cache = new WeakMap<HistoryEntry, number>();

  const countText = (text: string): number => {
    if (text === '') return 0;
    const count = tokenizer.countTokens(text);
    return Number.isFinite(count) && count > 0 ? count : 0;
  };

  const countBlock = (block: ContentBlock): number => {
    switch (block.type) {
      case 'text':
        return countText(block.text);
      case 'thinking':
        return countText(block.thought);
      case 'tool_call':
        return countText(block.name) + countText(serialize(block.parameters));
      case 'tool_response':
        return countText(block.toolName) + countText(serialize(block.result));
      case 'media':
        return mediaTokens;
    }
  };

  const countEntry = (entry: HistoryEntry): number => {
    const cached = cache.get(entry);
    if (cached !== undefined) return cached;
    let total = entryOverheadTokens;
    for (const block of entry.blocks) total += countBlock(block);
    cache.set(entry, total);
    return total;
  };

  return {
    tokenizer,
    countText,
    countEntry,
    countEntries: (entries) => {
      let total = 0;
      for (const entry of entries) total += countEntry(entry);
      return total;
    },
    countOverhead: (system, tools) => {
      let total = 0;
      for (const block of system ?? []) total += countText(block.text);
      for (const tool of tools ?? []) {
        total += countText(tool.name) + countText(tool.description ?? '');
        if (tool.inputSchema !== undefined) total += countText(serialize(tool.inputSchema));
      }
      return total;
    },
  };
}
