import { createStrategyRegistry } from '@ctx/core';
import type { CliIo } from '../cli-io.js';
import { formatTable } from '../format-table.js';
import { strategyCatalog } from '../strategy-catalog.js';

/** `ctx strategies`: lists the installed strategies with their trigger and settings. */
export function runStrategiesCommand(options: { readonly json: boolean }, io: CliIo): number {
  const registry = createStrategyRegistry(strategyCatalog.map((entry) => entry.create()));
  const rows = registry.list().map((info) => {
    const entry = strategyCatalog.find((candidate) => candidate.name === info.name);
    return { ...info, packageName: entry?.packageName, settings: registry.require(info.name).settings };
  });
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
