import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { ContentBlock, TextBlock } from '../history/content-block.js';
import type { ToolDefinition } from '../history/conversation.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { JsonValue } from '../history/json-value.js';
import { isValidated } from '../history/validated-objects.js';
import { splitAtLineStarts } from './line-start-chunks.js';
import { createTextCountCache } from './text-count-cache.js';
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
  /**
   * Characters of text kept in the content cache: texts are also cached by content, so an equal text in a new entry
   * object (a strategy's rewritten entry, the validated copy the history service stores, a tool result repeated by
   * the agent, the name of every call of the same tool) is not tokenized again. With a tokenizer that declares
   * `additiveAtLineStarts`, texts of 1,024 characters or more are cached as chunks of lines as well as whole (all
   * within this one budget), so a text that shares most of its lines with one counted before (a block a strategy
   * rewrote in part) costs only the rest, and the same text again costs one lookup. Each cached text also costs the
   * budget 32 characters for its bookkeeping, so a budget spent on short texts still bounds the entries it holds.
   * Texts not looked up again since they were cached are evicted first, oldest first (a text looked up gets a
   * second chance); 0 turns the content cache off (each text is then tokenized whole, every time).
   * @default 16_000_000
   */
  readonly contentCacheCharacters?: number;
}

/**
 * Counts tokens of history entries, system instructions and tool definitions with one tokenizer, caching per entry.
 *
 * The cache is keyed by entry identity: entries are immutable values, so an entry that is still the same object
 * is never tokenized again. Content blocks validated by the history parser (frozen) are cached by identity too, so an entry rebuilt from blocks already
 * counted (a strategy's edit that keeps most blocks of an entry, the copy the history service stores of it) costs
 * a lookup per block; only new blocks are counted, and within them texts already counted (by content) are not
 * tokenized again.
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

/**
 * What each cached text costs the content cache's budget beyond its characters: about what a map entry and a short
 * string take. Short texts are cached too: a tokenizer call has a fixed cost that a lookup does not (gpt-tokenizer
 * took 3–11 µs for texts of 4–120 characters where a hit took 0.2–0.5 µs), and the short chunks of a long text come
 * back whenever a strategy rewrites it in part.
 */
const cachedTextOverhead = 32;
/** With a tokenizer whose counts add up at line starts, texts at least this long are counted chunk by chunk. */
const minimumChunkedLength = 1024;

function serialize(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Creates a {@link TokenCounter} over a tokenizer.
 *
 * @throws {@link InvalidSettingsError} when `contentCacheCharacters` is not a whole number ≥ 0.
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
  // Only blocks the history parser validated and deep-froze are cached by identity: any other block could still be
  // mutated (even a frozen one, through a nested object) and change under its count.
  const byBlock = new WeakMap<ContentBlock, number>();
  const contentCacheCharacters = options.contentCacheCharacters ?? 16_000_000;
  if (!(Number.isSafeInteger(contentCacheCharacters) && contentCacheCharacters >= 0)) {
    throw new InvalidSettingsError({
      issues: [
        {
          path: 'contentCacheCharacters',
          message: `Expected a whole number of characters ≥ 0, got ${contentCacheCharacters}`,
        },
      ],
    });
  }
  const byContent = createTextCountCache(contentCacheCharacters, cachedTextOverhead);

  const tokenize = (text: string): number => {
    const count = tokenizer.countTokens(text);
    return Number.isFinite(count) && count > 0 ? count : 0;
  };

  const countCachedText = (text: string): number => {
    if (text.length + cachedTextOverhead > contentCacheCharacters) return tokenize(text);
    const cached = byContent.get(text);
    if (cached !== undefined) return cached;
    const count = tokenize(text);
    byContent.set(text, count);
    return count;
  };

  // The sum of the chunks' counts is exactly the whole text's count (the tokenizer says so); chunks a text shares with
  // one counted before (the unchanged parts of a rewritten block, a file read again) come from the cache. Without a
  // cache nothing is looked up again, so chunks would only cost a tokenizer call each: texts are then counted whole.
  const chunked = tokenizer.additiveAtLineStarts === true && contentCacheCharacters > 0;
  const countText = (text: string): number => {
    if (text === '') return 0;
    if (!chunked || text.length < minimumChunkedLength) return countCachedText(text);
    // The whole text is remembered too, in the same cache and budget as its chunks: the same string counted again (an
    // emergency cut measuring a tool result before cutting it) is one lookup, where splitting it and looking up its
    // chunks would read it twice more. A text that is a single chunk has the same count either way.
    const known = byContent.get(text);
    if (known !== undefined) return known;
    let total = 0;
    for (const chunk of splitAtLineStarts(text)) total += countCachedText(chunk);
    byContent.set(text, total);
    return total;
  };

  const countBlockContent = (block: ContentBlock): number => {
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

  const countBlock = (block: ContentBlock): number => {
    if (block.type === 'media' || !isValidated(block, 'block')) return countBlockContent(block);
    const cached = byBlock.get(block);
    if (cached !== undefined) return cached;
    const count = countBlockContent(block);
    byBlock.set(block, count);
    return count;
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
