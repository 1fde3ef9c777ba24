import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { CompressionStrategy } from '@ctx/core';
import { listPresets } from '../preset-library.js';
import { builtInStrategySources, loadPlugins } from '../strategy-sources.js';
import { tokenizerNames } from '../tokenizers.js';
import { playgroundVersion } from '../version.js';
import { loadCostModels } from './load-cost-models.js';
import type { ServeInfo, StrategyInfo } from './serve-api.js';

/** JSON Schema of the settings' input, when the strategy's schema implements Standard JSON Schema (zod 4 does). */
function settingsJsonSchema(strategy: CompressionStrategy): Record<string, unknown> | undefined {
  const standard = strategy.settingsSchema?.['~standard'] as { jsonSchema?: { input?: (options: { target: string }) => Record<string, unknown> } } | undefined;
  try {
    return standard?.jsonSchema?.input?.({ target: 'draft-2020-12' });
  } catch {
    // A schema JSON Schema cannot express (a transform, a custom check): the page offers a JSON box instead.
    return undefined;
  }
}

function describeStrategy(source: { name: string; origin: string; create: () => CompressionStrategy }): StrategyInfo {
  let strategy: CompressionStrategy;
  try {
    strategy = source.create();
  } catch {
    // Needs settings to be created at all: listed without a form.
    return { name: source.name, origin: source.origin, requiresLLM: false };
  }
  const schema = settingsJsonSchema(strategy);
  return {
    name: source.name,
    origin: source.origin,
    ...(strategy.description === undefined ? {} : { description: strategy.description }),
    requiresLLM: strategy.requiresLLM,
    ...(schema === undefined ? {} : { settingsJsonSchema: schema }),
    ...(strategy.settings === undefined ? {} : { defaultSettings: strategy.settings }),
  };
}

/**
 * `GET /api/info`: every strategy the page can run (built in, then `--plugin` ones, each with its settings schema and
 * defaults), the presets, tokenizers, the models a cost model prices, and the recent Claude Code sessions.
 *
 * @param options - `plugins`: the `--plugin` modules; `recentSessions`: session paths, newest first; `sessionsDirectory`: where they were looked for.
 */
export async function readServeInfo(options: {
  readonly plugins: readonly string[];
  readonly recentSessions: readonly string[];
  readonly sessionsDirectory: string;
}): Promise<ServeInfo> {
  const sources = [...builtInStrategySources(), ...(await loadPlugins(options.plugins))];
  const seen = new Set<string>();
  const strategies = sources.filter((source) => !seen.has(source.name) && seen.add(source.name)).map(describeStrategy);
  const { presets, problems } = await listPresets();
  const costModels = await loadCostModels();
  return {
    version: playgroundVersion,
    strategies,
    presets: presets.map(({ preset, origin }) => ({
      name: preset.name,
      description: preset.description,
      origin,
      steps: preset.strategies.map((step) => step.strategy),
    })),
    tokenizers: [...tokenizerNames],
    costModels: costModels?.models ?? [],
    recentSessions: options.recentSessions.flatMap((path) => {
      try {
        const info = statSync(path);
        return [{ path, project: basename(dirname(path)), modified: info.mtime.toISOString(), bytes: info.size }];
      } catch {
        return [];
      }
    }),
    sessionsDirectory: options.sessionsDirectory,
    problems,
  };
}
