import type { CompressionContext, CompressionResult, CompressionStrategy, DensityConfig, DensityResult, HistoryEntry } from '@ctx/core';

/** One call of a strategy's `optimize()` or `compress()`: what it was given and what it answered. */
export type RecordedPass =
  | { readonly kind: 'density'; readonly strategy: string; readonly input: readonly HistoryEntry[]; readonly result: DensityResult }
  | { readonly kind: 'compression'; readonly strategy: string; readonly input: readonly HistoryEntry[]; readonly result: CompressionResult };

/** A strategy factory that records the calls of the strategy it created last. */
export interface RecordingFactory {
  readonly create: () => CompressionStrategy;
  /** The calls of the last strategy created, in order; undefined when it could not be observed (a frozen object). */
  readonly latest: () => readonly RecordedPass[] | undefined;
}

/** True when a proxy may hand out its own function for `property` (not a non-configurable, read-only one). */
function replaceable(target: object, property: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(target, property);
  return !(descriptor !== undefined && descriptor.configurable === false && descriptor.writable === false);
}

/**
 * Wraps a strategy factory so the page can tell, entry by entry, which pass kept, replaced or removed what: every
 * strategy it creates reads through to the real one (a proxy), and its `optimize()` and `compress()` answers are kept
 * by reference (the inputs are frozen, so nothing is copied while the strategy is being timed).
 */
export function recordStrategyPasses(create: () => CompressionStrategy): RecordingFactory {
  let latest: RecordedPass[] | undefined;
  return {
    latest: () => latest,
    create: () => {
      const strategy = create();
      if (!replaceable(strategy, 'compress') || (strategy.optimize !== undefined && !replaceable(strategy, 'optimize'))) {
        latest = undefined;
        return strategy;
      }
      const passes: RecordedPass[] = [];
      latest = passes;
      return new Proxy(strategy, {
        get(target, property, receiver) {
          const value: unknown = Reflect.get(target, property, receiver);
          if (typeof value !== 'function') return value;
          if (property === 'optimize') {
            const optimize = value as (history: readonly HistoryEntry[], config: DensityConfig) => DensityResult;
            return (history: readonly HistoryEntry[], config: DensityConfig) => {
              const result = optimize.call(target, history, config);
              passes.push({ kind: 'density', strategy: target.name, input: history, result });
              return result;
            };
          }
          if (property === 'compress') {
            const compress = value as (context: CompressionContext) => Promise<CompressionResult>;
            return async (context: CompressionContext) => {
              const result = await compress.call(target, context);
              passes.push({ kind: 'compression', strategy: target.name, input: context.history, result });
              return result;
            };
          }
          return value;
        },
      });
    },
  };
}
