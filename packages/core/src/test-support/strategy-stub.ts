import type { CompressionStrategy } from '../strategy/compression-strategy.js';

/** A minimal valid threshold strategy that never compresses; `extra` overrides any member. */
export function strategyNamed(name: string, extra: Partial<CompressionStrategy> = {}): CompressionStrategy {
  return {
    specificationVersion: 'v1',
    name,
    requiresLLM: false,
    trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    compress: () => Promise.resolve({ type: 'no-op', reason: 'already-under-target' }),
    ...extra,
  };
}
