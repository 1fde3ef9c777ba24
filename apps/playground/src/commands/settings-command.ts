import { describeCompressionSettings } from '@ctx/core';
import type { CliIo } from '../cli-io.js';
import { formatTable } from '../format-table.js';

/** `ctx settings`: lists every `compression.*` setting with its default and description. */
export function runSettingsCommand(options: { readonly json: boolean }, io: CliIo): number {
  const settings = describeCompressionSettings();
  if (options.json) {
    io.stdout(JSON.stringify({ settings }, null, 2));
    return 0;
  }
  io.stdout(
    formatTable(
      ['setting', 'default', 'description'],
      settings.map((setting) => [
        setting.key,
        setting.defaultValue === undefined ? '—' : JSON.stringify(setting.defaultValue),
        setting.description,
      ]),
    ),
  );
  return 0;
}
