import { formatConformanceReport, runConformance } from '@ctx/conformance';
import type { CliIo } from '../cli-io.js';
import { resolveStrategies, type StrategyCommandOptions } from '../resolve-strategies.js';
import { formatSkippedConformanceChecks, listSkippedConformanceChecks } from '../skipped-conformance-checks.js';

/**
 * `ctx conformance`: runs the conformance kit on every known strategy (or the named ones, plugins included) and
 * prints each report with the checks that were skipped and why (`skipped` in `--json`). Exit 1 when a check failed.
 */
export async function runConformanceCommand(
  options: StrategyCommandOptions & { readonly json: boolean },
  io: CliIo,
): Promise<number> {
  const reports = [];
  for (const createStrategy of await resolveStrategies(options)) {
    const report = await runConformance({ strategy: createStrategy });
    reports.push({ ...report, skipped: listSkippedConformanceChecks(report) });
  }
  if (options.json) io.stdout(JSON.stringify({ reports }, null, 2));
  else io.stdout(reports.map((report) => [formatConformanceReport(report), ...formatSkippedConformanceChecks(report.skipped)].join('\n')).join('\n'));
  return reports.every((report) => report.passed) ? 0 : 1;
}
