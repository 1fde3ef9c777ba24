import { formatTable } from '../format-table.js';
import { escapeForTerminal } from '../terminal-text.js';
import type { CostReport } from './cost-report.js';
import { syntheticModel } from './billed-model-calls.js';
import type { ModelCostSum } from './model-cost-sums.js';
import type { StrategyCost } from './simulate-compressed-cost.js';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const none = '—';

/** Dollars with cents, and more digits below a dollar so small sessions do not all read $0.00. */
export function formatUsd(usd: number): string {
  const digits = Math.abs(usd) >= 1 || usd === 0 ? 2 : 4;
  const text = `$${Math.abs(usd).toFixed(digits)}`;
  return usd < 0 ? `-${text}` : text;
}

function modelUsd(sum: ModelCostSum): string {
  if (sum.model === syntheticModel) return 'not billed';
  return sum.usd === null ? 'no price' : formatUsd(sum.usd);
}

function strategyCells(row: StrategyCost, label: string, cacheAware: boolean): string[] {
  const aware = cacheAware ? [row.cacheAware === undefined ? none : formatUsd(row.cacheAware.cost.total.usd), row.cacheAware === undefined ? none : integer.format(row.cacheAware.declined)] : [];
  if (row.cost === undefined) return [label, row.outcome === 'needs-model' ? 'needs a model' : 'failed', none, none, none, none, ...aware];
  const { total } = row.cost;
  const saved = row.savedUsd ?? 0;
  return [
    label,
    formatUsd(total.usd),
    formatUsd(saved),
    integer.format(total.cacheReadTokens),
    integer.format(total.cacheWrite5mTokens + total.cacheWrite1hTokens),
    integer.format(row.rewrites),
    ...aware,
  ];
}

/**
 * Renders `ctx cost` as text: the recorded cost per model and in total, then the simulated cost of each strategy with
 * what it saves, and notes (unpriced models, failures, the models behind the figures).
 *
 * @param report - The report `ctx cost --json` would print.
 * @returns Lines for stdout.
 */
export function formatCostReport(report: CostReport): string {
  const { recorded } = report;
  const lines: string[] = [];
  const files = report.files.length === 1 ? escapeForTerminal(report.files[0] ?? '') : `${report.files.length} files`;
  lines.push(
    `Recorded cost of ${files}: ${integer.format(recorded.total.calls)} API calls (${integer.format(report.usageRecords)} usage records, each call counted once by message id + request id)`,
    '',
  );
  lines.push(
    formatTable(
      ['model', 'calls', 'input', 'cache write 5m', 'cache write 1h', 'cache read', 'output', 'USD'],
      [...recorded.models, { ...recorded.total, model: 'total', usd: recorded.total.usd }].map((sum) => [
        escapeForTerminal(sum.model),
        integer.format(sum.calls),
        integer.format(sum.inputTokens),
        integer.format(sum.cacheWrite5mTokens),
        integer.format(sum.cacheWrite1hTokens),
        integer.format(sum.cacheReadTokens),
        integer.format(sum.outputTokens),
        sum.model === 'total' ? formatUsd(sum.usd ?? 0) : modelUsd(sum),
      ]),
    ),
  );
  if (recorded.total.unpricedModels.length > 0) {
    lines.push(`No price for ${recorded.total.unpricedModels.map(escapeForTerminal).join(', ')}: their tokens are listed but not in the USD total.`);
  }
  const { simulation } = report;
  lines.push(
    '',
    `What it would have cost compressed: ${integer.format(simulation.replayedCalls)} of ${integer.format(recorded.total.calls)} calls replayed turn by turn in a ${integer.format(simulation.window)}-token window (${simulation.tokenizer}); the others billed as recorded.`,
    '',
  );
  const cacheAware = report.strategies.some((row) => row.cacheAware !== undefined);
  const rows = [
    [
      'recorded',
      formatUsd(recorded.total.usd),
      none,
      integer.format(recorded.total.cacheReadTokens),
      integer.format(recorded.total.cacheWrite5mTokens + recorded.total.cacheWrite1hTokens),
      none,
      ...(cacheAware ? [none, none] : []),
    ],
    ...report.strategies.map((row) => strategyCells(row, escapeForTerminal(row.strategy), cacheAware)),
  ];
  lines.push(
    formatTable(
      ['strategy', 'USD', 'saved vs recorded', 'cache read', 'cache write', 'cache breaks', ...(cacheAware ? ['USD cache-aware', 'declined'] : [])],
      rows,
    ),
  );
  const failures = report.strategies.filter((row) => row.outcome === 'failed');
  failures.forEach((row, index) => lines.push(`[${index + 1}] ${escapeForTerminal(row.strategy)} failed: ${(row.detail ?? '').split('\n').map(escapeForTerminal).join('\n    ')}`));
  lines.push(
    '',
    'Replayed calls: recorded input × (our tokens of the compressed request ÷ of the uncompressed one); cache reads scale with the unchanged prefix of the previous request (a rewrite of entries already sent breaks it there), the rest is written; output as recorded. "cache breaks": calls before which the strategy rewrote entries already sent.',
  );
  if (cacheAware) {
    lines.push(
      '"USD cache-aware": the same replay with the orchestrator priced at the session\'s model, declining any compaction that would cost more in cache writes than it saves while the request still fits (saving counted over as many calls as the session had made, at least 10); "declined": passes it declined.',
    );
  }
  for (const comparison of report.condensing) {
    lines.push(
      '',
      `One ${escapeForTerminal(comparison.strategy)} compaction of the largest request (${escapeForTerminal(comparison.session)}), estimated per condensing model (no model called):`,
      '',
      formatTable(
        ['condensing model', 'calls', 'input', 'output (est.)', 'USD', `saved vs ${escapeForTerminal(comparison.conversationModel)}`],
        comparison.rows.map((row) => [
          escapeForTerminal(row.model) + (row.profile === comparison.recommended ? ' (cheapest)' : ''),
          integer.format(row.estimate.llmCalls),
          integer.format(row.estimate.usage.inputTokens),
          integer.format(row.estimate.usage.outputTokens),
          formatUsd(row.estimate.usd),
          row.profile === comparison.conversationModel ? none : `${formatUsd(row.savingsUsd)} (${(row.savingsShare * 100).toFixed(0)}%)`,
        ]),
      ),
    );
  }
  return lines.join('\n');
}
