import type { CompressionStrategy, DensityConfig, DensityResult, HistoryEntry } from '@ctx/core';

/**
 * The strategy's `optimize` as a plain function (it is optional on the contract; the lossless strategy has it).
 *
 * @param strategy - A continuous strategy.
 * @returns `optimize`, bound to the strategy.
 * @throws Error when the strategy has no `optimize`.
 */
export function optimizeWith(
  strategy: CompressionStrategy,
): (history: readonly HistoryEntry[], config: DensityConfig) => DensityResult {
  return (history, config) => {
    const result = strategy.optimize?.(history, config);
    if (result === undefined) throw new Error(`${strategy.name} has no optimize()`);
    return result;
  };
}
