import type { TurnReport } from '@ctx/core';

/**
 * What a strategy did in one run, as the sum of the operation counts its passes reported (a density pass's
 * metadata, a compression pass's `metadata.counts`), e.g. `{ readWritePairsPruned: 4, toolResultsSummarized: 12 }`.
 * Zero counts are left out, so an empty object means the strategy reported no operation.
 *
 * @param report - The orchestrator's report of the run, or undefined when the run failed.
 * @returns Operation name → total count, in the order the strategy first reported them.
 */
export function sumOperationCounts(report: TurnReport | undefined): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const pass of report?.passes ?? []) {
    if (pass.outcome !== 'applied') continue;
    const counts = pass.densityMetadata ?? pass.compressionMetadata?.counts ?? {};
    for (const [operation, count] of Object.entries(counts)) {
      if (typeof count === 'number' && count !== 0) totals[operation] = (totals[operation] ?? 0) + count;
    }
  }
  return totals;
}

/** One line of the summary under `ctx compare`'s table: an operation of one strategy over many transcripts. */
export interface OperationSummary {
  readonly strategy: string;
  readonly operation: string;
  readonly total: number;
  /** Per transcript format: in how many transcripts of that format the operation happened, of how many. */
  readonly byFormat: readonly { readonly format: string; readonly fired: number; readonly transcripts: number }[];
}

/**
 * Sums the operation counts of many compare rows per strategy and operation, and says in how many transcripts of each
 * format the operation happened, so a run over a corpus shows which rules fire on which agents' transcripts.
 *
 * @param rows - Compare rows with their format, strategy and operation counts.
 * @returns One summary per strategy and operation, in the order they first appear.
 */
export function summarizeOperations(
  rows: readonly { readonly format: string; readonly strategy: string; readonly operations: Readonly<Record<string, number>> }[],
): OperationSummary[] {
  const transcriptsPerFormat = new Map<string, Map<string, number>>();
  const fired = new Map<string, { strategy: string; operation: string; total: number; byFormat: Map<string, number> }>();
  for (const row of rows) {
    const formats = transcriptsPerFormat.get(row.strategy) ?? new Map<string, number>();
    formats.set(row.format, (formats.get(row.format) ?? 0) + 1);
    transcriptsPerFormat.set(row.strategy, formats);
    for (const [operation, count] of Object.entries(row.operations)) {
      const key = `${row.strategy}\u0000${operation}`;
      const summary = fired.get(key) ?? { strategy: row.strategy, operation, total: 0, byFormat: new Map<string, number>() };
      summary.total += count;
      summary.byFormat.set(row.format, (summary.byFormat.get(row.format) ?? 0) + 1);
      fired.set(key, summary);
    }
  }
  return [...fired.values()].map((summary) => ({
    strategy: summary.strategy,
    operation: summary.operation,
    total: summary.total,
    byFormat: [...(transcriptsPerFormat.get(summary.strategy) ?? new Map<string, number>())].map(([format, transcripts]) => ({
      format,
      fired: summary.byFormat.get(format) ?? 0,
      transcripts,
    })),
  }));
}
