import { formatConformanceReport, runConformance } from '@ctx/conformance';
import type { CliIo } from '../cli-io.js';
import { resolveStrategies, type StrategyCommandOptions } from '../resolve-strategies.js';

/** `ctx conformance`: runs the conformance kit on every known strategy (or the named ones, plugins included). */
export async function runConformanceCommand(
  options: StrategyCommandOptions & { readonly json: boolean },
  io: CliIo,
): Promise<number> {
  const reports = [];
  for (const createStrategy of await resolveStrategies(options)) {
    reports.push(await runConformance({ strategy: createStrategy }));
  }
  if (options.json) io.stdout(JSON.stringify({ reports }, null, 2));
  else io.stdout(reports.map(formatConformanceReport).join('\n'));
  return reports.every((report) => report.passed) ? 0 : 1;
}
