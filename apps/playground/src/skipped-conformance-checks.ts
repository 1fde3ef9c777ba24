import type { ConformanceReport } from '@ctx/conformance';

/** A conformance check that did not run, and why (one per check, however many fixtures it was skipped on). */
export interface SkippedConformanceCheck {
  readonly checkId: string;
  readonly title: string;
  /** The kit's reason, e.g. "the strategy has no optimize()". */
  readonly reason: string;
  /** The fixtures it was skipped on; empty for a check of the strategy as a whole. */
  readonly fixtures: readonly string[];
}

/**
 * The checks of a conformance report that were skipped, with the kit's reason, grouped by check: a skipped check is
 * not a passed one, and the user should see which parts of the contract were not exercised.
 */
export function listSkippedConformanceChecks(report: ConformanceReport): SkippedConformanceCheck[] {
  const byCheck = new Map<string, { checkId: string; title: string; reason: string; fixtures: string[] }>();
  for (const result of report.results) {
    if (result.status !== 'skipped') continue;
    const reason = result.message ?? 'no reason given';
    const key = `${result.checkId}\u0000${reason}`;
    let entry = byCheck.get(key);
    if (entry === undefined) {
      entry = { checkId: result.checkId, title: result.title, reason, fixtures: [] };
      byCheck.set(key, entry);
    }
    if (result.fixture !== undefined) entry.fixtures.push(result.fixture);
  }
  return [...byCheck.values()];
}

/** One line per skipped check, indented to sit under the report: `skipped <id>: <reason> (on n fixtures)`. */
export function formatSkippedConformanceChecks(skipped: readonly SkippedConformanceCheck[]): string[] {
  return skipped.map((check) => {
    const where = check.fixtures.length === 0 ? '' : ` (on ${check.fixtures.length} fixture${check.fixtures.length === 1 ? '' : 's'})`;
    return `  - skipped ${check.checkId}: ${check.reason}${where}`;
  });
}
