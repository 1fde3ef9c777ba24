import type { CompressionStrategy } from '@ctx/core';
import { StrategyFailedError, type StrategyMethod } from './strategy-failed-error.js';

function rethrow(strategy: CompressionStrategy, method: StrategyMethod, error: unknown): never {
  if (StrategyFailedError.isInstance(error)) throw error;
  throw new StrategyFailedError({ strategyName: strategy.name, method, cause: error });
}

/**
 * The strategy as the orchestrator should see it, except that an error thrown by its `optimize()` or `compress()`
 * becomes a {@link StrategyFailedError} naming the strategy and the method, so a broken plugin is reported in one line
 * instead of a stack trace. Everything else reads through to the strategy itself (a proxy, so class-based strategies
 * and their getters keep working). A method the proxy may not replace (a frozen strategy object) is left as it is.
 */
export function guardStrategyCalls(strategy: CompressionStrategy): CompressionStrategy {
  return new Proxy(strategy, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if ((property !== 'optimize' && property !== 'compress') || typeof value !== 'function') return value;
      // A proxy must return a non-configurable, read-only property unchanged.
      const descriptor = Object.getOwnPropertyDescriptor(target, property);
      if (descriptor !== undefined && descriptor.configurable === false && descriptor.writable === false) return value;
      const method = value as (...parameters: unknown[]) => unknown;
      if (property === 'optimize') {
        return (...parameters: unknown[]) => {
          try {
            return method.apply(target, parameters);
          } catch (error) {
            return rethrow(target, 'optimize', error);
          }
        };
      }
      return async (...parameters: unknown[]) => {
        try {
          return await method.apply(target, parameters);
        } catch (error) {
          return rethrow(target, 'compress', error);
        }
      };
    },
  });
}
