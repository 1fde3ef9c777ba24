import { createStrategyRegistry } from '@ctx/core';
import type { CliIo } from '../cli-io.js';
import { formatTable } from '../format-table.js';
import { builtInStrategySources, loadPlugins } from '../strategy-sources.js';

/** `ctx strategies`: lists the installed strategies (and `--plugin` ones) with their trigger and settings. */
export async function runStrategiesCommand(
  options: { readonly json: boolean; readonly plugin: readonly string[] },
  io: CliIo,
): Promise<number> {
  const sources = [...builtInStrategySources(), ...(await loadPlugins(options.plugin))];
  const registry = createStrategyRegistry(sources.map((source) => source.create()));
  const rows = registry.list().map((info) => ({
    ...info,
    packageName: sources.find((source) => source.name === info.name)?.origin,
    settings: registry.require(info.name).settings,
  }));
  if (options.json) {
    io.stdout(JSON.stringify({ strategies: rows }, null, 2));
    return 0;
  }
  io.stdout(
    formatTable(
      ['strategy', 'package', 'trigger', 'LLM', 'settings', 'description'],
      rows.map((row) => [
        row.name,
        row.packageName ?? '',
        `${row.trigger.mode} @ ${row.trigger.defaultThreshold}`,
        row.requiresLLM ? 'yes' : 'no',
        JSON.stringify(row.settings ?? {}),
        row.description ?? '',
      ]),
    ),
  );
  return 0;
}
