/**
 * Chunks are cut only where the line after the break is one of about this many (by a hash of its start). Smaller
 * chunks leave less unchanged text around an edit to tokenize again but cost more lookups: 4 tokenized 1–5% fewer
 * characters than 8 in the corpus replays for the same instructions (counted under valgrind); at 2, chunks under
 * the content cache's then 64-character minimum were tokenized every time and lossless tokenized more.
 */
const chunkSpacing = 4;
/** A chunk longer than this is cut at the next line start that allows it, whatever the line holds. */
const longestChunk = 8192;
/** How many characters of a line decide whether a chunk starts there. */
const hashedCharacters = 24;

const lineFeed = 10;
const carriageReturn = 13;
const slash = 47;
const space = 32;
const tab = 9;
const whiteSpace = /\s/;

/**
 * Whether the position right after a line feed allows a cut: the line starts with neither `\r`, `\n` nor `/`, and
 * any spaces or tabs it starts with are followed by a character that is not white space (see
 * `Tokenizer.additiveAtLineStarts`).
 */
export function allowsCut(text: string, start: number): boolean {
  const first = text.charCodeAt(start);
  if (first === lineFeed || first === carriageReturn || first === slash) return false;
  let index = start;
  while (index < text.length && (text.charCodeAt(index) === space || text.charCodeAt(index) === tab)) index += 1;
  if (index >= text.length) return false;
  const code = text.charCodeAt(index);
  // ASCII first (most lines); the rest of what `\s` matches is checked by the regular expression.
  if (code < 128) return code > space || (code < tab || (code > carriageReturn && code < space));
  return !whiteSpace.test(text.charAt(index));
}

/** Whether a chunk starts at `start`, by the first characters of the line alone (FNV-1a over UTF-16 units). */
function startsChunk(text: string, start: number): boolean {
  let hash = 0x811c9dc5;
  const end = Math.min(text.length, start + hashedCharacters);
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === lineFeed) break;
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  return (hash >>> 0) % chunkSpacing === 0;
}

/**
 * Splits `text` into chunks a tokenizer with `additiveAtLineStarts` counts exactly piece by piece: each cut is right
 * after a line feed, at a line start that allows it, and is chosen by that line's first characters (about one line
 * start in four), so the same lines give the same chunks wherever they appear and an edit changes only the chunks
 * around it. A chunk grows past 8,192 characters only when no line start allows a cut.
 *
 * @param text - Any text.
 * @returns The chunks, in order; joined they are `text`. A text without a usable cut is one chunk.
 */
export function splitAtLineStarts(text: string): string[] {
  const chunks: string[] = [];
  let from = 0;
  let lineFeedAt = text.indexOf('\n');
  while (lineFeedAt !== -1 && lineFeedAt < text.length - 1) {
    const start = lineFeedAt + 1;
    if (allowsCut(text, start) && (start - from >= longestChunk || startsChunk(text, start))) {
      chunks.push(text.slice(from, start));
      from = start;
    }
    lineFeedAt = text.indexOf('\n', start);
  }
  chunks.push(text.slice(from));
  return chunks;
}
