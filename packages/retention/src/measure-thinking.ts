import type { HistoryEntry } from '@ctx/core';
import { quoteExcerpt, RetentionTally, type RetentionMeasure } from './retention-measure.js';
import { stableJson } from './stable-json.js';

/**
 * Thinking integrity: every thinking block of `after` must be byte-identical (thought, signature, flags, provider
 * metadata) to a thinking block of `before`; a modified one counts as missing. Dropping thinking whole is allowed,
 * so the total is the number of thinking blocks in `after`.
 *
 * @param before - The original history.
 * @param after - The history to judge.
 * @returns The measure; missing items name their entry in `after`.
 */
export function measureThinking(before: readonly HistoryEntry[], after: readonly HistoryEntry[]): RetentionMeasure {
  const original = new Set<string>();
  for (const entry of before) {
    for (const block of entry.blocks) if (block.type === 'thinking') original.add(stableJson(block));
  }
  const tally = new RetentionTally();
  after.forEach((entry, entryIndex) => {
    for (const block of entry.blocks) {
      if (block.type !== 'thinking') continue;
      if (original.has(stableJson(block))) tally.keep();
      else tally.lose(() => `entry ${entryIndex} (of after): thinking changed or not in before ${quoteExcerpt(block.thought)}`);
    }
  });
  return tally.toMeasure();
}
