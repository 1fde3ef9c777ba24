import type { HistoryEntry } from '../history/history-entry.js';

/**
 * Marks an entry a strategy created (a summary, a "content was removed" notice) rather than one that came from
 * the conversation: `metadata.providerMetadata.ctx.generatedBy` names the strategy. Reports, retention checks and
 * the conformance kit use it to tell user-typed text from text a strategy wrote.
 *
 * @returns A new entry; the input is not modified.
 *
 * @example
 * ```ts
 * const summary = markGeneratedEntry(
 *   { speaker: 'human', blocks: [{ type: 'text', text: '[Summary of earlier conversation] …' }] },
 *   'one-shot-summary',
 * );
 * ```
 */
export function markGeneratedEntry(entry: HistoryEntry, strategyName: string): HistoryEntry {
  const metadata = entry.metadata ?? {};
  return {
    ...entry,
    metadata: {
      ...metadata,
      providerMetadata: {
        ...metadata.providerMetadata,
        ctx: { ...metadata.providerMetadata?.ctx, generatedBy: strategyName },
      },
    },
  };
}

/** The name of the strategy that created `entry`, or undefined for conversation entries. */
export function getEntryGenerator(entry: HistoryEntry): string | undefined {
  const generatedBy = entry.metadata?.providerMetadata?.ctx?.generatedBy;
  return typeof generatedBy === 'string' ? generatedBy : undefined;
}
