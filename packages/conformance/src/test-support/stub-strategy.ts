import type { CompressionContext, CompressionResult, CompressionStrategy, HistoryEntry } from '@ctx/core';

/** A threshold strategy that does nothing unless a test overrides its parts. */
export function stubStrategy(name: string, overrides: Partial<CompressionStrategy>): CompressionStrategy {
  return {
    specificationVersion: 'v1',
    name,
    requiresLLM: false,
    trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    compress: () => Promise.resolve({ type: 'no-op', reason: 'already-under-target' }),
    ...overrides,
  };
}

/** An `applied` result replacing the history with `newHistory`. */
export function appliedResult(context: CompressionContext, newHistory: readonly HistoryEntry[], strategyUsed: string): CompressionResult {
  return {
    type: 'applied',
    newHistory,
    metadata: {
      originalMessageCount: context.history.length,
      compressedMessageCount: newHistory.length,
      strategyUsed,
      llmCallMade: false,
    },
  };
}
