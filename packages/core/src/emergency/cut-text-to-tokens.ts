import { formatCount } from '../text/format-count.js';
import { noteComposedText } from '../tokens/composed-texts.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** What {@link cutTextToTokens} kept of a text. */
export interface TextCut {
  /** The head, the marker and the tail. */
  readonly text: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Lines left out (a partial line at either edge counts as one). */
  readonly linesOmitted: number;
}

/** Moves `index` off the low half of a surrogate pair, so a cut never leaves a lone surrogate. */
function safeBoundary(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff && index > 0 ? index - 1 : index;
}

/** Snaps a cut to a line break near it (within a fifth of the kept part), so lines are kept whole. */
function snapHeadEnd(text: string, end: number): number {
  const lineBreak = text.lastIndexOf('\n', end - 1);
  return lineBreak > 0 && end - lineBreak <= Math.max(1, end / 5) ? lineBreak + 1 : end;
}

function snapTailStart(text: string, start: number): number {
  const lineBreak = text.indexOf('\n', start);
  return lineBreak >= 0 && lineBreak - start <= Math.max(1, (text.length - start) / 5) ? lineBreak + 1 : start;
}

/** Line breaks in `text[start … end)`. */
function countLineBreaks(text: string, start: number, end: number): number {
  let breaks = 0;
  for (let index = text.indexOf('\n', start); index >= 0 && index < end; index = text.indexOf('\n', index + 1)) breaks++;
  return breaks;
}

/**
 * Lines of `text[start … end)`, a partial line at either edge counting as one, in time proportional to what lies
 * outside that range: the line breaks of the whole text are counted once, and a cut keeps only a small head and tail.
 */
function createLineCounter(text: string): (start: number, end: number) => number {
  let allBreaks: number | undefined;
  return (start, end) => {
    if (end <= start) return 0;
    allBreaks ??= countLineBreaks(text, 0, text.length);
    // The breaks of text[start … end − 1): all of them but those before `start` and from `end − 1` on.
    return 1 + allBreaks - countLineBreaks(text, 0, start) - countLineBreaks(text, end - 1, text.length);
  };
}

/**
 * Shortens a text to at most `maxTokens` tokens by keeping its beginning and its end (a command's output tends to
 * say what ran at the top and how it ended at the bottom) with a marker saying how much was cut in between.
 * Cuts fall on line breaks where one is near; a surrogate pair is never split. Returns the text unchanged when it
 * already fits.
 *
 * @param text - The text to shorten.
 * @param maxTokens - Tokens the result may take, marker included (at least the marker's own size is used).
 * @param counter - Counts tokens the way the history does.
 * @param label - Names what was cut in the marker, e.g. `Bash result`.
 */
export function cutTextToTokens(text: string, maxTokens: number, counter: TokenCounter, label: string): TextCut {
  const tokensBefore = counter.countText(text);
  if (tokensBefore <= maxTokens) return { text, tokensBefore, tokensAfter: tokensBefore, linesOmitted: 0 };
  const marker = (omittedTokens: number, omittedLines: number) =>
    `[… ${formatCount(omittedLines)} line${omittedLines === 1 ? '' : 's'} (${formatCount(omittedTokens)} tokens) of this ${label} were cut by ctx to fit the context window; the beginning and the end are kept …]`;
  const countLines = createLineCounter(text);
  const markerTokens = counter.countText(marker(tokensBefore, countLines(0, text.length)));
  let keepTokens = Math.max(0, maxTokens - markerTokens);
  const charactersPerToken = text.length / Math.max(1, tokensBefore);
  let best: TextCut | undefined;
  // Characters per token varies along a text; a few passes correct the first guess.
  for (let attempt = 0; attempt < 6; attempt++) {
    const keepCharacters = Math.floor(keepTokens * charactersPerToken);
    const headLength = Math.ceil(keepCharacters * 0.6);
    const tailLength = keepCharacters - headLength;
    const headEnd = safeBoundary(text, snapHeadEnd(text, headLength));
    const tailStart = safeBoundary(text, snapTailStart(text, Math.max(headEnd, text.length - tailLength)));
    const head = text.slice(0, headEnd);
    const tail = text.slice(tailStart);
    // Spans of a text the counter has just counted: it adds up the counts of the chunks they keep (see
    // noteComposedText) instead of splitting them again.
    noteComposedText(head, [{ text, start: 0, end: headEnd }]);
    noteComposedText(tail, [{ text, start: tailStart, end: text.length }]);
    const omittedLines = countLines(headEnd, tailStart);
    const omittedTokens = Math.max(0, tokensBefore - counter.countText(head) - counter.countText(tail));
    const headLine = head.endsWith('\n') ? '' : '\n';
    const markerLine = `${marker(omittedTokens, omittedLines)}\n`;
    const candidate = `${head}${headLine}${markerLine}${tail}`;
    noteComposedText(candidate, [{ text, start: 0, end: headEnd }, headLine, markerLine, { text, start: tailStart, end: text.length }]);
    const tokensAfter = counter.countText(candidate);
    if (tokensAfter <= maxTokens) {
      best = { text: candidate, tokensBefore, tokensAfter, linesOmitted: omittedLines };
      break;
    }
    if (keepTokens === 0) break;
    keepTokens = Math.floor(keepTokens * Math.min(0.9, maxTokens / tokensAfter));
  }
  if (best !== undefined) return best;
  // Only the marker fits (or not even that): say what was there.
  const markerOnly = marker(tokensBefore, countLines(0, text.length));
  return { text: markerOnly, tokensBefore, tokensAfter: counter.countText(markerOnly), linesOmitted: countLines(0, text.length) };
}
