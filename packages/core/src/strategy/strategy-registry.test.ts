import { describe, expect, it } from 'vitest';
import { InvalidStrategyError } from '../errors/invalid-strategy-error.js';
import { UnknownStrategyError } from '../errors/unknown-strategy-error.js';
import { type CompressionStrategy } from './compression-strategy.js';
import { strategyNamed } from '../test-support/strategy-stub.js';
import { createEmptyDensityResult } from './density-result.js';
import {
  assertCompressionStrategy,
  createStrategyRegistry,
  parseCompressionStrategyName,
} from './strategy-registry.js';


/** Returns the error `action` throws, failing when it does not throw one of the expected kind. */
function thrownBy<T>(action: () => unknown, isExpected: (error: unknown) => error is T): T {
  try {
    action();
  } catch (error) {
    if (isExpected(error)) return error;
    throw error;
  }
  throw new Error('Expected the action to throw');
}

const isInvalidStrategyError = (error: unknown) => InvalidStrategyError.isInstance(error);
const isUnknownStrategyError = (error: unknown) => UnknownStrategyError.isInstance(error);

/** Objects that break the contract, and the field each error message must name. */
const invalidStrategies: readonly { readonly problem: string; readonly value: unknown; readonly field: string }[] = [
  {
    problem: 'no compress function',
    value: {
      specificationVersion: 'v1',
      name: 'no-compress',
      requiresLLM: false,
      trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    },
    field: 'compress',
  },
  {
    problem: 'specificationVersion v2',
    value: { ...strategyNamed('future'), specificationVersion: 'v2' },
    field: 'specificationVersion',
  },
  { problem: 'an uppercase name', value: strategyNamed('TopDown'), field: 'name' },
  { problem: 'an expand that is not a function', value: { ...strategyNamed('lossy'), expand: 'yes' }, field: 'expand' },
  {
    problem: 'a default threshold of 0',
    value: strategyNamed('zero', { trigger: { mode: 'threshold', defaultThreshold: 0 } }),
    field: 'trigger.defaultThreshold',
  },
  {
    problem: 'a default threshold of 1.5',
    value: strategyNamed('too-high', { trigger: { mode: 'continuous', defaultThreshold: 1.5 } }),
    field: 'trigger.defaultThreshold',
  },
  {
    problem: 'an optimize that is not a function',
    value: { ...strategyNamed('bad-optimize'), optimize: 'yes' },
    field: 'optimize',
  },
];

describe('parseCompressionStrategyName', () => {
  it('ERR-001: should return a known name', () => {
    expect(parseCompressionStrategyName('b', ['a', 'b'])).toBe('b');
    expect(parseCompressionStrategyName('a', createStrategyRegistry([strategyNamed('a')]))).toBe('a');
  });

  it('ERR-001: should throw UnknownStrategyError listing the known names for an unknown name', () => {
    const error = thrownBy(() => parseCompressionStrategyName('zzz', ['top-down', 'lossless']), isUnknownStrategyError);
    expect(error.strategyName).toBe('zzz');
    expect(error.knownNames).toEqual(['top-down', 'lossless']);
    expect(error.message).toContain('"zzz"');
    expect(error.message).toContain('known strategies: top-down, lossless');
  });

  it('ERR-001: should match names exactly, not by case or prefix', () => {
    expect(() => parseCompressionStrategyName('Top-Down', ['top-down'])).toThrow(UnknownStrategyError);
    expect(() => parseCompressionStrategyName('top', ['top-down'])).toThrow(UnknownStrategyError);
  });

  it.each([42, null, undefined, ['a'], { name: 'a' }, true])(
    'ERR-001: should throw UnknownStrategyError for the non-string %o',
    (value) => {
      const error = thrownBy(() => parseCompressionStrategyName(value, ['a', 'b']), isUnknownStrategyError);
      expect(error.strategyName).toBe(value);
      expect(error.message).toContain('known strategies: a, b');
    },
  );

  it('ERR-001: should list the names of a registry in registration order', () => {
    const registry = createStrategyRegistry([strategyNamed('zeta'), strategyNamed('alpha')]);
    expect(() => parseCompressionStrategyName('zzz', registry)).toThrow('known strategies: zeta, alpha');
  });

  it('ERR-001: should say that nothing is registered for an empty registry', () => {
    expect(() => parseCompressionStrategyName('a', createStrategyRegistry())).toThrow('no strategy is registered');
  });

  it('ERR-001: should raise UnknownStrategyError, not a TypeError, for values JSON cannot render', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const value of [10n, circular]) {
      expect(() => parseCompressionStrategyName(value, ['a'])).toThrow(UnknownStrategyError);
    }
  });
});

describe('assertCompressionStrategy', () => {
  it('should accept a valid strategy, with or without optimize', () => {
    expect(() => assertCompressionStrategy(strategyNamed('top-down-truncation'))).not.toThrow();
    expect(() =>
      assertCompressionStrategy(
        strategyNamed('high-density', {
          trigger: { mode: 'continuous', defaultThreshold: 1 },
          optimize: () => createEmptyDensityResult(),
        }),
      ),
    ).not.toThrow();
  });

  it.each(invalidStrategies)('should reject $problem with an error naming $field', ({ value, field }) => {
    const error = thrownBy(() => assertCompressionStrategy(value), isInvalidStrategyError);
    expect(error.message).toMatch(new RegExp(`^\\s*${field.replaceAll('.', '\\.')}: `, 'm'));
  });

  it('should name the strategy in the message when it has a name', () => {
    expect(() => assertCompressionStrategy(strategyNamed('TopDown'))).toThrow(
      'Not a valid compression strategy "TopDown"',
    );
  });

  it.each([null, 'top-down', 42])('should reject the non-object %o', (value) => {
    expect(() => assertCompressionStrategy(value)).toThrow(InvalidStrategyError);
  });
});

describe('createStrategyRegistry', () => {
  it('should register, get and report strategies', () => {
    const registry = createStrategyRegistry();
    const truncation = strategyNamed('top-down-truncation');
    registry.register(truncation);

    expect(registry.get('top-down-truncation')).toBe(truncation);
    expect(registry.has('top-down-truncation')).toBe(true);
    expect(registry.require('top-down-truncation')).toBe(truncation);
    expect(registry.get('missing')).toBeUndefined();
    expect(registry.has('missing')).toBe(false);
  });

  it('should pre-fill from the strategies it is created with', () => {
    const registry = createStrategyRegistry([strategyNamed('a'), strategyNamed('b')]);
    expect(registry.has('a') && registry.has('b')).toBe(true);
  });

  it('should list names in registration order', () => {
    const registry = createStrategyRegistry([strategyNamed('sliding-window')]);
    registry.register(strategyNamed('high-density'));
    registry.register(strategyNamed('lossless'));
    expect(registry.names()).toEqual(['sliding-window', 'high-density', 'lossless']);
  });

  it('should list strategy info, with optimizes true only for strategies that implement optimize', () => {
    const registry = createStrategyRegistry([
      strategyNamed('summarize', {
        description: 'Summarizes old turns with a model.',
        requiresLLM: true,
        capabilities: { llmSummarization: true, estimatedSpeed: 'slow' },
      }),
      strategyNamed('high-density', {
        trigger: { mode: 'continuous', defaultThreshold: 0.85 },
        optimize: () => createEmptyDensityResult(),
      }),
    ]);

    expect(registry.list()).toEqual([
      {
        name: 'summarize',
        description: 'Summarizes old turns with a model.',
        requiresLLM: true,
        trigger: { mode: 'threshold', defaultThreshold: 0.85 },
        capabilities: { llmSummarization: true, estimatedSpeed: 'slow' },
        optimizes: false,
      },
      {
        name: 'high-density',
        description: undefined,
        requiresLLM: false,
        trigger: { mode: 'continuous', defaultThreshold: 0.85 },
        capabilities: {},
        optimizes: true,
      },
    ]);
  });

  it('ERR-001: should throw UnknownStrategyError from require, listing the known names', () => {
    const registry = createStrategyRegistry([strategyNamed('a'), strategyNamed('b')]);
    const error = thrownBy(() => registry.require('zzz'), isUnknownStrategyError);
    expect(error.knownNames).toEqual(['a', 'b']);
    expect(error.message).toContain('known strategies: a, b');
    expect(() => registry.require(42)).toThrow(UnknownStrategyError);
  });

  it('should reject a second strategy with a taken name and keep the first', () => {
    const first = strategyNamed('lossless');
    const registry = createStrategyRegistry([first]);
    const error = thrownBy(() => registry.register(strategyNamed('lossless')), isInvalidStrategyError);
    expect(error.message).toContain('"lossless" is already registered');
    expect(registry.get('lossless')).toBe(first);
    expect(registry.names()).toEqual(['lossless']);
  });

  it('should reject duplicate names passed at creation', () => {
    expect(() => createStrategyRegistry([strategyNamed('a'), strategyNamed('a')])).toThrow(InvalidStrategyError);
  });

  it.each(invalidStrategies)('should refuse to register $problem, naming $field', ({ value, field }) => {
    const registry = createStrategyRegistry();
    const error = thrownBy(() => registry.register(value as CompressionStrategy), isInvalidStrategyError);
    expect(error.message).toContain(`${field}: `);
    expect(registry.names()).toEqual([]);
  });
});
