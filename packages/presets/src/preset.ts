import { z } from 'zod';

/** One step of a preset: a strategy, by the name it is registered under, and its settings. */
export interface PresetStep {
  /** The strategy's name, e.g. `high-density`; its package must be installed (see `createPresetStrategy`). */
  readonly strategy: string;
  /** The strategy's settings, validated by the strategy's own factory; omitted means its defaults. */
  readonly settings?: Readonly<Record<string, unknown>>;
}

/**
 * A named compression pipeline (spec 004 FR-CS-003): strategies in the order they run, each with its settings. A
 * preset is data — saved, shared and imported as JSON — and becomes one strategy with `createPresetStrategy`.
 *
 * @example
 * ```json
 * {
 *   "name": "my-agent",
 *   "description": "Stale reads removed, then old shell output truncated.",
 *   "strategies": [
 *     { "strategy": "high-density", "settings": { "foldEdits": true } },
 *     { "strategy": "truncation", "settings": { "preserveRecentCount": 10 } }
 *   ]
 * }
 * ```
 */
export interface Preset {
  /** Kebab-case, e.g. `coding-agent`. */
  readonly name: string;
  /** One or two sentences: what the pipeline does and when to use it. */
  readonly description: string;
  /** The steps, in order. At least one. */
  readonly strategies: readonly PresetStep[];
  /**
   * Fraction of the context window at which the pipeline compresses, in (0, 1].
   * @default the lowest default threshold of its strategies
   */
  readonly threshold?: number;
}

const kebabCase = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'expected a kebab-case name such as "coding-agent" (lower-case letters, digits, dashes)');

/** Schema of a {@link Preset} as JSON. */
export const presetSchema = z.strictObject({
  name: kebabCase,
  description: z.string().min(1, 'expected a sentence saying what the preset does'),
  strategies: z
    .array(
      z.strictObject({
        strategy: kebabCase,
        settings: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .min(1, 'expected at least one strategy'),
  threshold: z.number().gt(0, 'expected a fraction in (0, 1]').lte(1, 'expected a fraction in (0, 1]').optional(),
});
