import { createStrategyRegistry } from '@ctx/core';
import type { CliIo } from '../cli-io.js';
import { builtInStrategySources, loadPlugins } from '../strategy-sources.js';
import { outputColumns, wrapText } from '../wrap-text.js';

/** JSON with a space after each comma, so that long lists and objects can wrap between their items. */
function formatValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${formatValue(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? String(value);
}

/** The settings, one `name=value` per line (values as JSON, what `--set` takes), wrapped to `width`. */
function describeSettings(settings: unknown, width: number): string[] {
  const entries = typeof settings === 'object' && settings !== null ? Object.entries(settings as Record<string, unknown>) : [];
  if (entries.length === 0) return ['  settings: none'];
  return ['  settings:', ...entries.flatMap(([key, value]) => wrapText(`${key}=${formatValue(value)}`, { width, indent: '    ' }))];
}

/**
 * `ctx strategies`: lists the installed strategies (and `--plugin` ones) with their package, trigger and settings.
 * The text form is one block per strategy wrapped to the terminal's width (80 columns when stdout is not a
 * terminal); `--json` prints every field.
 */
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
  const width = outputColumns(io.columns);
  const blocks = rows.map((row) =>
    [
      ...wrapText(`${row.name} — ${row.packageName ?? 'unknown package'}`, { width }),
      ...wrapText(`trigger ${row.trigger.mode} @ ${row.trigger.defaultThreshold} · LLM ${row.requiresLLM ? 'yes' : 'no'}`, { width, indent: '  ' }),
      ...(row.description === undefined || row.description === '' ? [] : wrapText(row.description, { width, indent: '  ' })),
      ...describeSettings(row.settings, width),
    ].join('\n'),
  );
  io.stdout(blocks.join('\n\n'));
  return 0;
}
