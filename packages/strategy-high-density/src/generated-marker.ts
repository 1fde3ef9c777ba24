import type { ToolResponseBlock } from '@ctx/core';

/** The strategy's name, as it marks what it writes. */
export const strategyName = 'high-density';

/**
 * What a strategy wrote into a tool result, recorded in the block's `providerMetadata.ctx` (the key `@ctx/core`
 * uses for its own marks) so later passes recognize it: a folded read must not be folded from again as if it were
 * the tool's output, and a summary must not be summarized again.
 */
export type GeneratedMarker =
  | {
      readonly kind: 'folded-read';
      /** The id of the last edit call whose replacements the content already includes. */
      readonly foldedThrough: string;
      /** Length of the tool's own output the fold started from: later folds of the read never exceed it. */
      readonly originalLength: number;
    }
  | { readonly kind: 'summary' };

/**
 * Reads the mark a strategy left on a tool result.
 *
 * @param block - A `tool_response` block.
 * @returns The mark, or undefined for a result as the tool produced it.
 */
export function readGeneratedMarker(block: ToolResponseBlock): GeneratedMarker | undefined {
  const ctx = block.providerMetadata?.ctx;
  if (ctx === undefined) return undefined;
  const foldedThrough = ctx.foldedThrough;
  if (typeof foldedThrough === 'string') {
    const originalLength = typeof ctx.originalLength === 'number' ? ctx.originalLength : 0;
    return { kind: 'folded-read', foldedThrough, originalLength };
  }
  if (typeof ctx.summarizedBy === 'string') return { kind: 'summary' };
  return undefined;
}

/**
 * A copy of `block` with `result` replaced and the mark recorded.
 *
 * @param block - The original response.
 * @param result - The new result text.
 * @param marker - What the new result is.
 * @returns A new block; `block` is not modified.
 */
export function withGeneratedResult(block: ToolResponseBlock, result: string, marker: GeneratedMarker): ToolResponseBlock {
  const mark: Readonly<Record<string, string | number>> =
    marker.kind === 'folded-read'
      ? { reconstructedBy: strategyName, foldedThrough: marker.foldedThrough, originalLength: marker.originalLength }
      : { summarizedBy: strategyName };
  const {
    foldedThrough: _folded,
    originalLength: _originalLength,
    reconstructedBy: _reconstructed,
    summarizedBy: _summarized,
    ...otherMarks
  } = block.providerMetadata?.ctx ?? {};
  return {
    ...block,
    result,
    providerMetadata: { ...block.providerMetadata, ctx: { ...otherMarks, ...mark } },
  };
}
