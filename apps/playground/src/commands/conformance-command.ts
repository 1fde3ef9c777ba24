import { formatConformanceReport, runConformance } from '@ctx/conformance';
import type { CliIo } from '../cli-io.js';
import { selectStrategies } from '../select-strategies.js';

/** `ctx conformance`: runs the conformance kit on every installed strategy (or the named ones). */
export async function runConformanceCommand(
  options: { readonly strategies?: string; readonly json: boolean },
  io: CliIo,
): Promise<number> {
  const reports = [];
  for (const createStrategy of selectStrategies(options.strategies)) {
    reports.push(await runConformance({ strategy: createStrategy }));
  }
  if (options.json) io.stdout(JSON.stringify({ reports }, null, 2));
  else io.stdout(reports.map(formatConformanceReport).join('\n'));
  return reports.every((report) => report.passed) ? 0 : 1;
}
