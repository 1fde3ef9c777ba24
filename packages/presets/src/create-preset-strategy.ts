import { composeStrategies, CtxError, type CompressionStrategy, type ComposedStrategySettings } from '@ctx/core';
import { InvalidPresetError } from './invalid-preset-error.js';
import { parsePreset } from './parse-preset.js';
import type { Preset } from './preset.js';

/**
 * Creates a strategy from settings, as every strategy package's `create…Strategy` does. The second argument is how
 * a step is handed run-time parts that are not JSON (smart passes' lossless prelude).
 */
export type PresetStrategyFactory = (settings?: never, runtime?: never) => CompressionStrategy;

/** Options of {@link createPresetStrategy}. */
export interface CreatePresetStrategyOptions {
  /**
   * The strategies a preset may name, by name: `{ 'high-density': createHighDensityStrategy, … }`. Only the
   * strategies the preset uses are needed, so an application installs only those packages.
   */
  readonly factories: Readonly<Record<string, PresetStrategyFactory>>;
}

function settingsOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * Smart passes run the lossless strategy as their prelude when `losslessPrelude.enabled` (spec 004 FR-SM-003); no
 * strategy imports another, so the prelude is created here from the `lossless` factory and handed over at run time.
 */
function runtimeFor(
  step: Preset['strategies'][number],
  factories: CreatePresetStrategyOptions['factories'],
): { prelude: CompressionStrategy } | undefined {
  if (step.strategy !== 'smart-passes') return undefined;
  const prelude = settingsOf(step.settings?.['losslessPrelude']);
  if (prelude?.['enabled'] !== true) return undefined;
  const lossless = factories['lossless'];
  if (lossless === undefined) throw new Error('losslessPrelude needs the lossless strategy: install @ctx/strategy-lossless and pass its factory as factories.lossless');
  const operations = settingsOf(prelude['operations']) ?? {};
  return { prelude: (lossless as (settings?: unknown) => CompressionStrategy)(operations) };
}

/**
 * Turns a preset into one strategy: each step created from `factories` with its settings, then composed with
 * `composeStrategies` from `@ctx/core` (density passes in order every turn, compression steps in order until the
 * target is met). The strategy carries the preset's name, so reports and `ctx compare` show it by that name.
 *
 * @example
 * ```ts
 * import { builtInPresets, createPresetStrategy } from '@ctx/presets';
 * import { createHighDensityStrategy } from '@ctx/strategy-high-density';
 * import { createSmartPassesStrategy } from '@ctx/strategy-smart-passes';
 *
 * const strategy = createPresetStrategy(builtInPresets['coding-agent'], {
 *   factories: { 'high-density': createHighDensityStrategy, 'smart-passes': createSmartPassesStrategy },
 * });
 * ```
 *
 * @throws {@link InvalidPresetError} when the preset is malformed, a step names a strategy `factories` lacks (the
 *   message says which package to install), or a step's settings are rejected (the strategy's error is the `cause`).
 */
export function createPresetStrategy(preset: Preset, options: CreatePresetStrategyOptions): CompressionStrategy<ComposedStrategySettings> {
  const valid = parsePreset(preset);
  const steps = valid.strategies.map((step, index) => {
    const path = `strategies[${index}]`;
    const factory = Object.hasOwn(options.factories, step.strategy) ? options.factories[step.strategy] : undefined;
    if (factory === undefined) {
      const known = Object.keys(options.factories);
      throw new InvalidPresetError({
        presetName: valid.name,
        issues: [
          {
            path: `${path}.strategy`,
            message: `no strategy "${step.strategy}" is available (install its package, e.g. @ctx/strategy-${step.strategy}, and pass its factory); available: ${known.length === 0 ? 'none' : known.join(', ')}`,
          },
        ],
      });
    }
    try {
      const create = factory as (settings?: unknown, runtime?: unknown) => CompressionStrategy;
      const runtime = runtimeFor(step, options.factories);
      return runtime === undefined ? create(step.settings) : create(step.settings, runtime);
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n').map((line) => line.trim()).filter(Boolean).join('; ') : String(error);
      throw new InvalidPresetError({
        presetName: valid.name,
        issues: [{ path, message: `${step.strategy} rejected its settings: ${message}` }],
        cause: error,
      });
    }
  });
  try {
    return composeStrategies({
      name: valid.name,
      description: valid.description,
      strategies: steps,
      ...(valid.threshold === undefined ? {} : { threshold: valid.threshold }),
    });
  } catch (error) {
    if (!CtxError.isInstance(error)) throw error;
    throw new InvalidPresetError({ presetName: valid.name, issues: [{ path: '', message: error.message }], cause: error });
  }
}
