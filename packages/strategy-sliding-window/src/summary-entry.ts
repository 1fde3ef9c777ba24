import { getEntryGenerator, markGeneratedEntry, type HistoryEntry } from '@ctx/core';

/** The name the strategy is registered under, and the generator name on the summaries it writes. */
export const slidingWindowName = 'sliding-window';

const header = '[Previous conversation summary]';
const footer = '[End of summary — conversation continues below]';

/**
 * The entry that takes the place of the dropped part: a user message (so the history still starts with the user,
 * as Anthropic and many clients require) wrapped in the markers of spec 002 (`[Previous conversation summary]` …
 * `[End of summary — conversation continues below]`), marked with `markGeneratedEntry` so retention checks and
 * later passes know the strategy wrote it.
 */
export function createSummaryEntry(body: string): HistoryEntry {
  return markGeneratedEntry(
    { speaker: 'human', blocks: [{ type: 'text', text: `${header}\n${body}\n${footer}` }] },
    slidingWindowName,
  );
}

/**
 * The body of a summary this strategy wrote in an earlier pass, or undefined for any other entry. A later pass
 * carries it forward instead of cutting it to an excerpt (spec 002: the previous summary is folded into the next).
 */
export function readSummaryBody(entry: HistoryEntry): string | undefined {
  if (entry.speaker !== 'human' || entry.blocks.length !== 1 || getEntryGenerator(entry) !== slidingWindowName) {
    return undefined;
  }
  const block = entry.blocks[0];
  if (block?.type !== 'text') return undefined;
  const { text } = block;
  if (!text.startsWith(`${header}\n`) || !text.endsWith(`\n${footer}`)) return undefined;
  return text.slice(header.length + 1, text.length - footer.length - 1);
}
