import type { HistoryEntry } from '@ctx/core';

/** A tool name no classifier knows: what a call with rewritten parameters is classified as. */
const unknownTool = 'ctx:parameters-rewritten';

/** The ids of the calls of `entry` whose parameters this strategy rewrote (`providerMetadata.ctx.parametersRewritten`). */
function rewrittenCallIds(entry: HistoryEntry): readonly string[] {
  const ids = entry.metadata?.providerMetadata?.['ctx']?.['parametersRewritten'];
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/**
 * Marks, on the entry (so the blocks sent to the model and their size stay as they are), the calls whose parameters
 * this strategy shortened, suppressed or summarized: what those parameters now say about the call's target (a path
 * cut to `/`) is no longer what the call did.
 *
 * @param entry - The entry with the new parameters.
 * @param callIds - The calls whose parameters changed.
 * @returns The entry with `metadata.providerMetadata.ctx.parametersRewritten` listing them (with any listed before).
 */
export function markRewrittenParameters(entry: HistoryEntry, callIds: readonly string[]): HistoryEntry {
  if (callIds.length === 0) return entry;
  const ids = [...new Set([...rewrittenCallIds(entry), ...callIds])];
  const providerMetadata = entry.metadata?.providerMetadata;
  return {
    ...entry,
    metadata: {
      ...entry.metadata,
      providerMetadata: { ...providerMetadata, ctx: { ...providerMetadata?.['ctx'], parametersRewritten: ids } },
    },
  };
}

/**
 * The history as file-state rules should see it: calls whose parameters this strategy rewrote are given a tool name no
 * classifier knows, so cut paths cannot make reads of two files look like reads of one (which would mark the first
 * as superseded). Ids stay, so what the rules report still names the real calls.
 *
 * @param history - The history a pass works on.
 * @returns `history` itself when no call was rewritten; otherwise a copy with those calls renamed.
 */
export function withRewrittenCallsUnknown(history: readonly HistoryEntry[]): readonly HistoryEntry[] {
  if (!history.some((entry) => rewrittenCallIds(entry).length > 0)) return history;
  return history.map((entry) => {
    const ids = new Set(rewrittenCallIds(entry));
    if (ids.size === 0) return entry;
    return { ...entry, blocks: entry.blocks.map((block) => (block.type === 'tool_call' && ids.has(block.id) ? { ...block, name: unknownTool } : block)) };
  });
}
