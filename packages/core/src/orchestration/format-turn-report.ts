import type { PassReport, TurnReport } from './turn-report.js';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function percentChange(before: number, after: number): string {
  if (before === 0) return '0%';
  const change = ((after - before) / before) * 100;
  return `${change > 0 ? '+' : ''}${change.toFixed(0)}%`;
}

function formatDuration(milliseconds: number): string {
  return milliseconds >= 1000 ? `${(milliseconds / 1000).toFixed(1)} s` : `${milliseconds.toFixed(1)} ms`;
}

function formatPass(pass: PassReport): string {
  const label = `${pass.pass === 'density' ? 'Density' : 'Compression'} (${pass.strategy})`;
  const timing = formatDuration(pass.durationMs);
  if (pass.outcome === 'applied') {
    return `${label}: ${integer.format(pass.tokensBefore)} → ${integer.format(pass.tokensAfter)} tokens (${percentChange(pass.tokensBefore, pass.tokensAfter)}), ${pass.entriesBefore} → ${pass.entriesAfter} entries, ${timing}`;
  }
  const why = pass.outcome === 'failed' ? 'failed' : `no-op (${pass.reason ?? 'unknown'})`;
  return `${label}: ${why}${pass.message === undefined ? '' : ` — ${pass.message}`}, ${timing}`;
}

/**
 * Renders a turn report as the short text spec 004 NFR-U-002 describes: one line per pass with tokens before and
 * after, the change, entries and time, then warnings and the total.
 *
 * @example
 * ```text
 * Context compressed (threshold 85% from strategy-default):
 *  - Compression (top-down-truncation): 18,340 → 9,870 tokens (-46%), 42 → 21 entries, 0.4 ms
 *  - Total: 18,340 → 9,870 tokens (-46%) in 0.4 ms
 * ```
 */
export function formatTurnReport(report: TurnReport): string {
  const threshold = `threshold ${(report.threshold.value * 100).toFixed(0)}% from ${report.threshold.source}`;
  if (report.passes.length === 0) {
    return `Nothing to do (${integer.format(report.tokensAfter)} tokens, ${threshold}).`;
  }
  const lines = [`Context compressed (${threshold}):`];
  for (const pass of report.passes) {
    lines.push(` - ${formatPass(pass)}`);
    for (const warning of pass.warnings) lines.push(`   warning (${warning.type}): ${warning.message}`);
  }
  for (const warning of report.threshold.warnings) lines.push(`   warning (settings): ${warning}`);
  const total = report.passes.reduce((sum, pass) => sum + pass.durationMs, 0);
  lines.push(
    ` - Total: ${integer.format(report.tokensBefore)} → ${integer.format(report.tokensAfter)} tokens (${percentChange(report.tokensBefore, report.tokensAfter)}) in ${formatDuration(total)}`,
  );
  return lines.join('\n');
}
