import type { CompressionStrategy } from '@ctx/core';

/** The row name of the replay in which nothing is compressed. */
export const baselineRowName = 'baseline: nothing compressed';

/**
 * A context window no session reaches (a billion tokens): with it no threshold is ever crossed, so a replay does only
 * what every replay does whatever the strategy — each entry validated, copied and frozen, each text counted, the
 * orchestrator's check before each model call.
 */
export const baselineWindow = 1_000_000_000;

/**
 * The strategy of the baseline replay. With {@link baselineWindow} the orchestrator never calls it; if it did, it
 * would leave the history as it is.
 */
export function createBaselineStrategy(): CompressionStrategy {
  return {
    specificationVersion: 'v1',
    name: 'baseline',
    description: 'Compresses nothing: the replay measures the history service and the orchestrator alone.',
    requiresLLM: false,
    trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    compress: () => Promise.resolve({ type: 'no-op', reason: 'too-few-compressible' }),
  };
}
