import type { HistoryEntry } from '../history/history-entry.js';
import type { CompressionContext } from '../strategy/compression-context.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';

/** `w0 w1 … w{count-1}`: `count` tokens for the word tokenizer. */
export const words = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`).join(' ');

/** A threshold strategy (no model) whose compress() keeps what `select` picks of the history. */
export function selecting(
  name: string,
  select: (history: readonly HistoryEntry[]) => readonly HistoryEntry[],
): CompressionStrategy & { calls: CompressionContext[] } {
  const calls: CompressionContext[] = [];
  return {
    specificationVersion: 'v1',
    name,
    requiresLLM: false,
    trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    calls,
    compress(context) {
      calls.push(context);
      const newHistory = select(context.history);
      return Promise.resolve({
        type: 'applied',
        newHistory,
        metadata: {
          originalMessageCount: context.history.length,
          compressedMessageCount: newHistory.length,
          strategyUsed: name,
          llmCallMade: false,
        },
      });
    },
  };
}

/** Keeps only the newest `keep` entries. */
export const keepNewest = (name = 'keep-newest', keep = 1) => selecting(name, (history) => history.slice(-keep));

/** Drops only the oldest entry: it helps, but may leave the request over the line. */
export const dropFirst = (name: string) => selecting(name, (history) => history.slice(1));
