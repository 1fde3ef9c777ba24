import { CtxError, type CompressionStrategy } from '@ctx/core';
import { createPresetStrategy, InvalidPresetError } from '@ctx/presets';
import { CliError } from './cli-io.js';
import { findPreset } from './preset-library.js';
import { readStrategySettingsInput } from './strategy-settings-input.js';
import { builtInStrategySources, loadPlugins, selectStrategySources, strategyFactories } from './strategy-sources.js';
import { UsageError } from './usage-error.js';

/** Strategy options shared by `ctx compare` and `ctx compress`. */
export interface StrategyCommandOptions {
  /** Comma-separated names; undefined means every known strategy (none when `presets` is given). */
  readonly strategies?: string;
  /** Comma-separated preset names or preset `.json` files; each runs as one strategy named after the preset. */
  readonly presets?: string;
  readonly plugin: readonly string[];
  readonly set: readonly string[];
  readonly config?: string;
}

/**
 * Turns the command-line strategy options into factories, with settings applied: built-in strategies, installed
 * `@ctx/strategy-*` packages and `--plugin` modules; `--set` / `--config` settings validated by each strategy's own
 * factory (a bad value fails here, before any transcript is read).
 *
 * @throws `UsageError` for an empty or unknown strategy name or a malformed `--set` (exit 2); `CliError` for a plugin or
 *   `--config` file that cannot be used, or the strategy's `InvalidStrategySettingsError` (exit 1); each one line.
 */
export async function resolveStrategies(options: StrategyCommandOptions): Promise<(() => CompressionStrategy)[]> {
  const known = [...builtInStrategySources(), ...(await loadPlugins(options.plugin))];
  const presets = await resolvePresets(options.presets, known);
  if (options.presets !== undefined && options.strategies === undefined) return presets;
  const names = options.strategies?.split(',').map((name) => name.trim()).filter(Boolean);
  // `--strategies ""` (an empty shell variable) would otherwise run nothing and report success.
  if (names !== undefined && names.length === 0) {
    throw new UsageError(
      `--strategies expects one or more strategy names, got "${options.strategies ?? ''}"; known: ${known.map((source) => source.name).join(', ')}`,
    );
  }
  const selected = await selectStrategySources(names, known);
  const settings = await readStrategySettingsInput({
    set: options.set,
    ...(options.config === undefined ? {} : { config: options.config }),
    knownNames: [...new Set([...known, ...selected].map((source) => source.name))],
  });
  return selected.map((source) => {
    const strategySettings = settings.get(source.name);
    // Create once now so invalid settings are reported before any work starts, in one line.
    try {
      source.create(strategySettings);
    } catch (error) {
      if (CtxError.isInstance(error) || error instanceof CliError) throw error;
      throw new CliError(`strategy "${source.name}" (${source.origin}) rejected its settings: ${(error as Error).message.split('\n')[0] ?? ''}`, {
        cause: error,
      });
    }
    return () => source.create(strategySettings);
  }).concat(presets);
}

/**
 * Each preset as a factory of one composed strategy, its steps created from the known strategies (built-in, installed
 * and `--plugin` ones). Created once here, so an unknown preset, a step whose strategy is missing or settings a step
 * rejects fail before any transcript is read.
 */
async function resolvePresets(
  list: string | undefined,
  known: readonly { readonly name: string; readonly create: (settings?: Readonly<Record<string, unknown>>) => CompressionStrategy }[],
): Promise<(() => CompressionStrategy)[]> {
  if (list === undefined) return [];
  const names = list.split(',').map((name) => name.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError(`--presets expects one or more preset names, got "${list}"`);
  const factories = strategyFactories(known);
  const resolved: (() => CompressionStrategy)[] = [];
  for (const name of names) {
    const { preset, origin } = await findPreset(name);
    const create = () => createPresetStrategy(preset, { factories });
    try {
      create();
    } catch (error) {
      if (!InvalidPresetError.isInstance(error)) throw error;
      const detail = error.issues.map((issue) => `${issue.path === '' ? '' : `${issue.path}: `}${issue.message}`).join('; ');
      throw new CliError(`preset "${preset.name}" (${origin}) cannot be used: ${detail}`, { cause: error });
    }
    resolved.push(create);
  }
  return resolved;
}
