import type { HistoryEntry } from '@ctx/core';
import { typedPartOf } from '@ctx/strategy-utils';
import { listUserTexts } from './list-user-texts.js';
import { quoteExcerpt, RetentionTally, type RetentionMeasure } from './retention-measure.js';

/**
 * The texts of `after`'s human entries that can stand for a user text: each text block's whole text, and its typed
 * part when the block also carries harness reminders. Keys are trimmed: a strategy that cuts a reminder off the
 * end of a message may leave the line break before it, which changes nothing the user wrote.
 */
function countHumanTexts(after: readonly HistoryEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of after) {
    if (entry.speaker !== 'human') continue;
    for (const block of entry.blocks) {
      if (block.type !== 'text') continue;
      const forms = new Set([block.text.trim()]);
      const typed = typedPartOf(block.text);
      if (typed !== undefined) forms.add(typed.trim());
      for (const form of forms) counts.set(form, (counts.get(form) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * User-text retention: each user text of `before` (see `listUserTexts`) must appear verbatim, as a whole text
 * block, in a human entry of `after` (leading and trailing whitespace aside). Texts are matched as a multiset: a
 * prompt typed three times needs three blocks.
 *
 * @param before - The original history.
 * @param after - The history to judge.
 * @returns The measure; missing items name their entry in `before`.
 */
export function measureUserTexts(before: readonly HistoryEntry[], after: readonly HistoryEntry[]): RetentionMeasure {
  const available = countHumanTexts(after);
  const tally = new RetentionTally();
  for (const { entryIndex, text } of listUserTexts(before)) {
    const count = available.get(text.trim()) ?? 0;
    if (count > 0) {
      available.set(text.trim(), count - 1);
      tally.keep();
    } else {
      tally.lose(() => `entry ${entryIndex}: ${quoteExcerpt(text)}`);
    }
  }
  return tally.toMeasure();
}
