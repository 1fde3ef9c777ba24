import { z } from 'zod';
import { InvalidStrategyError } from '../errors/invalid-strategy-error.js';
import { UnknownStrategyError } from '../errors/unknown-strategy-error.js';
import { formatIssuePath } from '../errors/validation-issue.js';
import type { CompressionStrategy, StrategyCapabilities } from './compression-strategy.js';
import type { StrategyTrigger } from './strategy-trigger.js';

/** What a listing shows about a registered strategy. */
export interface StrategyInfo {
  readonly name: string;
  readonly description: string | undefined;
  readonly requiresLLM: boolean;
  readonly trigger: StrategyTrigger;
  readonly capabilities: StrategyCapabilities;
  /** True when the strategy implements `optimize()` (continuous density optimization). */
  readonly optimizes: boolean;
}

/**
 * The strategies an application can use, by name (the registry half of spec 004's provider manager). Explicit, not
 * global: create one, register what you installed, hand it to the orchestrator.
 */
export interface StrategyRegistry {
  /**
   * Adds a strategy.
   * @throws {@link InvalidStrategyError} when it does not implement the contract or its name is taken.
   */
  register(strategy: CompressionStrategy): void;
  /** The strategy registered under `name`, if any. */
  get(name: string): CompressionStrategy | undefined;
  /**
   * The strategy registered under `name`.
   * @throws {@link UnknownStrategyError} listing the known names (spec 000 ERR-001).
   */
  require(name: unknown): CompressionStrategy;
  has(name: string): boolean;
  /** Registered names, in registration order. */
  names(): readonly string[];
  list(): readonly StrategyInfo[];
}

const isFunction = (value: unknown) => typeof value === 'function';

const strategyShapeSchema = z.looseObject({
  specificationVersion: z.literal('v1', {
    error: 'Expected specificationVersion "v1"; this version of @ctx/core implements contract v1',
  }),
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._/-]*$/, 'Expected a lowercase name such as "top-down-truncation" (a-z, 0-9, - . /)'),
  requiresLLM: z.boolean(),
  trigger: z.object({
    mode: z.enum(['threshold', 'continuous']),
    defaultThreshold: z.number().gt(0).lte(1),
  }),
  compress: z.custom(isFunction, { message: 'Expected a compress(context) function' }),
  optimize: z.custom(isFunction, { message: 'Expected optimize to be a function' }).optional(),
  expand: z.custom(isFunction, { message: 'Expected expand to be a function' }).optional(),
});

/**
 * Checks that a value implements the strategy contract v1.
 * @throws {@link InvalidStrategyError} listing what is wrong.
 */
export function assertCompressionStrategy(value: unknown): asserts value is CompressionStrategy {
  const result = strategyShapeSchema.safeParse(value);
  if (!result.success) {
    const named =
      typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string'
        ? ` "${(value as { name: string }).name}"`
        : '';
    const lines = result.error.issues.map((issue) => `  ${formatIssuePath(issue.path) || '(root)'}: ${issue.message}`);
    throw new InvalidStrategyError({
      message: `Not a valid compression strategy${named}:\n${lines.join('\n')}`,
    });
  }
}

/**
 * Creates a {@link StrategyRegistry}, optionally pre-filled.
 *
 * @example
 * ```ts
 * const registry = createStrategyRegistry([createTopDownTruncationStrategy()]);
 * registry.require('top-down-truncation');
 * ```
 */
export function createStrategyRegistry(strategies: readonly CompressionStrategy[] = []): StrategyRegistry {
  const byName = new Map<string, CompressionStrategy>();

  const registry: StrategyRegistry = {
    register(strategy) {
      assertCompressionStrategy(strategy);
      if (byName.has(strategy.name)) {
        throw new InvalidStrategyError({
          message: `A strategy named "${strategy.name}" is already registered; strategy names must be unique.`,
        });
      }
      byName.set(strategy.name, strategy);
    },
    get: (name) => byName.get(name),
    require(name) {
      const strategy = typeof name === 'string' ? byName.get(name) : undefined;
      if (strategy === undefined) throw new UnknownStrategyError({ strategyName: name, knownNames: [...byName.keys()] });
      return strategy;
    },
    has: (name) => byName.has(name),
    names: () => [...byName.keys()],
    list: () =>
      [...byName.values()].map((strategy) => ({
        name: strategy.name,
        description: strategy.description,
        requiresLLM: strategy.requiresLLM,
        trigger: strategy.trigger,
        capabilities: strategy.capabilities ?? {},
        optimizes: typeof strategy.optimize === 'function',
      })),
  };
  for (const strategy of strategies) registry.register(strategy);
  return registry;
}

/**
 * Checks a strategy name from settings or user input (spec 000 `parseCompressionStrategyName`).
 *
 * @param value - The name as given (any type: settings files are untyped).
 * @param known - The registry, or the list of known names.
 * @returns The name, when it is known.
 * @throws {@link UnknownStrategyError} listing the known names (spec 000 ERR-001).
 */
export function parseCompressionStrategyName(value: unknown, known: StrategyRegistry | readonly string[]): string {
  const names = 'names' in known ? known.names() : known;
  if (typeof value === 'string' && names.includes(value)) return value;
  throw new UnknownStrategyError({ strategyName: value, knownNames: names });
}
