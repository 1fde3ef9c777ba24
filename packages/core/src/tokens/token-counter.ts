import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { ContentBlock, TextBlock } from '../history/content-block.js';
import type { ToolDefinition } from '../history/conversation.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { JsonValue } from '../history/json-value.js';
import { isValidated } from '../history/validated-objects.js';
import { composedTextRecipe, piecesJoinTo, type TextPiece } from './composed-texts.js';
import { allowsCut, splitAtLineStarts } from './line-start-chunks.js';
import { createRecentTexts } from './recent-texts.js';
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
   * second chance); 0 turns the content cache off (each text is then tokenized whole, every time). The 64 long texts
   * counted last also keep where they were cut and the counts in between, so that a text noted as made of spans of
   * them (`noteComposedText`) is counted from those sums; those texts take at most a quarter of this budget besides.
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
/**
 * How many long texts keep their chunks' positions and counts, the most recently counted first, and how much of the
 * content cache's budget their characters may take at most (the layouts keep the texts alive).
 */
const keptLayouts = 64;
const layoutShareOfBudget = 0.25;
const lineFeed = 10;

/**
 * Where a long text was cut for counting and the count before each cut: `positions[0]` is 0, the last is the text's
 * length, and `before[i]` the tokens of `text.slice(0, positions[i])` (exact: every cut is one the tokenizer's counts
 * add up at).
 */
interface CountLayout {
  readonly positions: readonly number[];
  readonly before: readonly number[];
}

/** The first index of `sorted` whose value is at least `value` (`sorted.length` when none is). */
function firstAtLeast(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

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
  // Long texts counted lately, with where they were cut: a text composed of spans of one of them (see
  // noteComposedText) is counted from these sums instead of being split and looked up chunk by chunk.
  const layouts = createRecentTexts<CountLayout>(keptLayouts, Math.floor(contentCacheCharacters * layoutShareOfBudget));

  const countChunks = (text: string): number => {
    const chunks = splitAtLineStarts(text);
    const positions = [0];
    const before = [0];
    let total = 0;
    let end = 0;
    for (const chunk of chunks) {
      total += countCachedText(chunk);
      end += chunk.length;
      positions.push(end);
      before.push(total);
    }
    if (chunks.length > 1) layouts.set(text, { positions, before });
    return total;
  };

  // A cut of `text` at `at` where the tokenizer's counts add up (see Tokenizer.additiveAtLineStarts).
  const additiveAt = (text: string, at: number): boolean =>
    at === 0 || at === text.length || (text.charCodeAt(at - 1) === lineFeed && allowsCut(text, at));

  // The pieces' own texts' layouts give the counts of whole chunks inside each span; what lies between those (the
  // start and end of each span, the strings written between them) is counted stretch by stretch, from the last cut
  // used to the next, in the chunks a split of the whole text would make there. Every join is checked in `text`
  // itself, so the sum is the whole text's count.
  const countComposed = (text: string, pieces: readonly TextPiece[]): number => {
    const positions = [0];
    const before = [0];
    let total = 0;
    let stretchStart = 0;
    const closeStretch = (end: number): void => {
      if (end <= stretchStart) return;
      // No span's chunks were of use: the text is counted as if it had no recipe.
      if (stretchStart === 0 && end === text.length) {
        total = countChunks(text);
        return;
      }
      // Cut where a split of the whole text would cut (a stretch starts and ends at such cuts), so the chunks around
      // what was written are the ones that split would look up, repeated markers and all, and later spans of this
      // text (an emergency cut's head and tail) can end close to them.
      let at = stretchStart;
      for (const chunk of splitAtLineStarts(text.slice(stretchStart, end))) {
        total += countCachedText(chunk);
        at += chunk.length;
        positions.push(at);
        before.push(total);
      }
    };
    let position = 0;
    for (const piece of pieces) {
      if (typeof piece === 'string') {
        position += piece.length;
        continue;
      }
      const layout = piece.end > piece.start ? layouts.get(piece.text) : undefined;
      if (layout !== undefined) {
        const { positions: cuts, before: counts } = layout;
        const at = (index: number): number => position + (cuts[index] as number) - piece.start;
        let first = firstAtLeast(cuts, piece.start);
        let last = firstAtLeast(cuts, piece.end + 1) - 1;
        while (first < last && !additiveAt(text, at(first))) first++;
        while (last > first && !additiveAt(text, at(last))) last--;
        if (first < last) {
          closeStretch(at(first));
          // Cuts strictly inside the span read only characters of the span (each line ends before the next cut).
          for (let index = first + 1; index <= last; index++) {
            positions.push(at(index));
            before.push(total + (counts[index] as number) - (counts[first] as number));
          }
          total += (counts[last] as number) - (counts[first] as number);
          stretchStart = at(last);
        }
      }
      position += piece.end - piece.start;
    }
    closeStretch(text.length);
    if (positions.length > 2) layouts.set(text, { positions, before });
    return total;
  };

  const countText = (text: string): number => {
    if (text === '') return 0;
    if (!chunked || text.length < minimumChunkedLength) return countCachedText(text);
    // The whole text is remembered too, in the same cache and budget as its chunks: the same string counted again (an
    // emergency cut measuring a tool result before cutting it) is one lookup, where splitting it and looking up its
    // chunks would read it twice more. A text that is a single chunk has the same count either way.
    const known = byContent.get(text);
    if (known !== undefined) return known;
    const recipe = composedTextRecipe(text);
    const total = recipe !== undefined && piecesJoinTo(text, recipe) ? countComposed(text, recipe) : countChunks(text);
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
