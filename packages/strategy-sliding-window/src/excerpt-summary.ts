import type { HistoryEntry, Todo, TokenCounter } from '@ctx/core';
import { isValidatedEntry } from '@ctx/strategy-utils';
import { describeEntryExcerpt } from './entry-excerpt.js';
import { createSummaryEntry, readSummaryBody } from './summary-entry.js';

/** What one excerpt summary holds. */
export interface ExcerptSummary {
  readonly entry: HistoryEntry;
  /** `countEntry(entry)`. */
  readonly tokens: number;
  /** Dropped messages whose excerpt was left out to stay within the token cap (oldest first). */
  readonly omitted: number;
}

/** Options of {@link ExcerptSummaryBuilder.build}. */
export interface ExcerptSummaryBuildOptions {
  /** An entry of the dropped part that is kept as it is (the pinned first user message), so it gets no excerpt. */
  readonly exclude?: number;
}

/** Builds excerpt summaries for any split of one history, reusing the excerpts between retries. */
export interface ExcerptSummaryBuilder {
  /**
   * The summary of `history[0…splitIndex)` (without `options.exclude`): the newest excerpts that fit `maxTokens`,
   * oldest first, after a line counting the ones left out. The fixed parts (markers, the todo list) are always
   * included.
   */
  build(splitIndex: number, maxTokens: number, options?: ExcerptSummaryBuildOptions): ExcerptSummary;
}

/** Options of {@link createExcerptSummaryBuilder}. */
export interface ExcerptSummaryOptions {
  readonly counter: TokenCounter;
  /** Characters kept of each message. */
  readonly excerptLength: number;
  /** The agent's task list, listed after the excerpts (spec 002 §5.4: the todo list survives compaction). */
  readonly todos?: readonly Todo[];
  /**
   * The excerpts of validated entries described in earlier calls, kept by the strategy (made for this
   * `excerptLength`): the next call, on the same history plus a few entries, describes only the new ones.
   */
  readonly cache?: ExcerptCache;
}

/** What one dropped entry contributes to an excerpt summary, by entry (see {@link ExcerptSummaryOptions.cache}). */
export type ExcerptCache = WeakMap<HistoryEntry, ExcerptPiece>;

/** What one entry contributes to an excerpt summary. */
export interface ExcerptPiece {
  /** Lines this entry contributes: one excerpt, or the lines a previous summary carries forward. */
  readonly lines: readonly string[];
  /** Messages an earlier summary had already left out. */
  readonly omitted: number;
}

const introPattern = /^Older messages were dropped to fit the context window/;
const omittedPattern = /^\[(\d+) earlier messages? omitted\]$/;
const todoTitle = 'Current todo list:';

function omittedLine(count: number): string {
  return `[${count} earlier message${count === 1 ? '' : 's'} omitted]`;
}

/** The lines of an earlier summary worth carrying forward: not its intro, its omission count or its todo list. */
function carriedPiece(body: string): ExcerptPiece {
  const lines: string[] = [];
  let omitted = 0;
  for (const line of body.split('\n')) {
    if (line === todoTitle) break;
    const count = omittedPattern.exec(line)?.[1];
    if (count !== undefined) omitted += Number(count);
    else if (line.trim() !== '' && !introPattern.test(line)) lines.push(line);
  }
  return { lines, omitted };
}

/**
 * Creates the deterministic summary of spec 002 §6.3 for the dropped part of `history` (the fallback when no
 * summarizer is given): one line per dropped message with its first `excerptLength` characters. A summary this
 * strategy wrote in an earlier pass is carried forward line by line rather than cut to an excerpt, so repeated
 * compactions accumulate the excerpts and then shed the oldest ones. The summary is capped in tokens: the newest
 * excerpts are kept, and one line counts what was left out (spec 002 §6.2 also drops the oldest messages first).
 *
 * Each entry is described at most once and each line counted at most once, however many splits are tried.
 *
 * @param history - The whole history (the builder summarizes prefixes of it).
 * @param options - Token counter, excerpt length, todo list.
 * @returns A builder for any split index.
 * @example
 * ```ts
 * const builder = createExcerptSummaryBuilder(history, { counter, excerptLength: 200 });
 * const { entry, tokens } = builder.build(120, 4_000);
 * ```
 */
export function createExcerptSummaryBuilder(
  history: readonly HistoryEntry[],
  options: ExcerptSummaryOptions,
): ExcerptSummaryBuilder {
  const { counter, excerptLength } = options;
  const intro = `Older messages were dropped to fit the context window; the first ${excerptLength} characters of each, oldest first:`;
  const todoLines =
    options.todos === undefined || options.todos.length === 0
      ? []
      : ['', todoTitle, ...options.todos.map((todo) => `- [${todo.status}] ${todo.content}`)];
  // Header, intro, todo list, footer: measured once on an entry without excerpts; the omission line is bounded.
  const fixedTokens =
    counter.countEntry(createSummaryEntry([intro, ...todoLines].join('\n'))) + counter.countText(omittedLine(999_999)) + 1;

  const pieces: ExcerptPiece[] = [];
  const lineTokens = new Map<string, number>();
  const pieceAt = (index: number): ExcerptPiece => {
    let piece = pieces[index];
    if (piece === undefined) {
      const entry = history[index] as HistoryEntry;
      // An entry's piece depends on the entry and the excerpt length only; validated entries cannot change.
      const cache = options.cache !== undefined && isValidatedEntry(entry) ? options.cache : undefined;
      piece = cache?.get(entry);
      if (piece === undefined) {
        const body = readSummaryBody(entry);
        if (body === undefined) {
          const line = describeEntryExcerpt(entry, excerptLength);
          piece = { lines: line === undefined ? [] : [line], omitted: 0 };
        } else {
          piece = carriedPiece(body);
        }
        cache?.set(entry, piece);
      }
      pieces[index] = piece;
    }
    return piece;
  };
  const tokensOf = (line: string): number => {
    let tokens = lineTokens.get(line);
    if (tokens === undefined) {
      tokens = counter.countText(line) + 1;
      lineTokens.set(line, tokens);
    }
    return tokens;
  };

  return {
    build(splitIndex, maxTokens, buildOptions = {}) {
      let available = maxTokens - fixedTokens;
      const kept: string[] = [];
      let omitted = 0;
      let full = false;
      for (let index = splitIndex - 1; index >= 0; index--) {
        if (index === buildOptions.exclude) continue;
        const piece = pieceAt(index);
        omitted += piece.omitted;
        for (let line = piece.lines.length - 1; line >= 0; line--) {
          const text = piece.lines[line] as string;
          if (!full && tokensOf(text) <= available) {
            available -= tokensOf(text);
            kept.push(text);
          } else {
            // The newest excerpts win: once one does not fit, every older one is left out.
            full = true;
            omitted += 1;
          }
        }
      }
      kept.reverse();
      const body = [intro, ...(omitted > 0 ? [omittedLine(omitted)] : []), ...kept, ...todoLines].join('\n');
      const entry = createSummaryEntry(body);
      return { entry, tokens: counter.countEntry(entry), omitted };
    },
  };
}
