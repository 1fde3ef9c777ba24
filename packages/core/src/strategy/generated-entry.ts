import type { HistoryEntry } from '../history/history-entry.js';

/**
 * Marks an entry that a strategy (or a codec, e.g. for an agent's own compaction summary) created, rather than one
 * typed or produced in the conversation: `metadata.providerMetadata.ctx.generatedBy` names who wrote it. Reports,
 * retention checks and the conformance kit use it to tell user-typed text from generated text.
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
export function markGeneratedEntry(entry: HistoryEntry, generatorName: string): HistoryEntry {
  const metadata = entry.metadata ?? {};
  return {
    ...entry,
    metadata: {
      ...metadata,
      providerMetadata: {
        ...metadata.providerMetadata,
        ctx: { ...metadata.providerMetadata?.ctx, generatedBy: generatorName },
      },
    },
  };
}

/** The name of the strategy or codec that created `entry`, or undefined for conversation entries. */
export function getEntryGenerator(entry: HistoryEntry): string | undefined {
  const generatedBy = entry.metadata?.providerMetadata?.ctx?.generatedBy;
  return typeof generatedBy === 'string' ? generatedBy : undefined;
}
