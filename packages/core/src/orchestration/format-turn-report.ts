import { formatRoundedCount } from '../text/format-count.js';
import type { PassReport, TurnReport } from './turn-report.js';

function percentChange(before: number, after: number): string {
  if (before === 0) return '0%';
  const change = ((after - before) / before) * 100;
  return `${change > 0 ? '+' : ''}${change.toFixed(0)}%`;
}

function formatDuration(milliseconds: number): string {
  return milliseconds >= 1000 ? `${(milliseconds / 1000).toFixed(1)} s` : `${milliseconds.toFixed(1)} ms`;
}

/** `readWritePairsPruned 3, recencyPruned 12`: the non-zero operation counts a pass reported, in its own order. */
function formatCounts(pass: PassReport): string | undefined {
  const counts = pass.densityMetadata ?? pass.compressionMetadata?.counts ?? {};
  const done = Object.entries(counts).filter(
    (entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] !== 0,
  );
  return done.length === 0 ? undefined : done.map(([operation, count]) => `${operation} ${formatRoundedCount(count)}`).join(', ');
}

const passLabels = { density: 'Density', compression: 'Compression', emergency: 'Emergency cut' } as const;

function formatPass(pass: PassReport): string {
  const label = `${passLabels[pass.pass]} (${pass.strategy})`;
  const timing = formatDuration(pass.durationMs);
  if (pass.outcome === 'applied') {
    return `${label}: ${formatRoundedCount(pass.tokensBefore)} → ${formatRoundedCount(pass.tokensAfter)} tokens (${percentChange(pass.tokensBefore, pass.tokensAfter)}), ${pass.entriesBefore} → ${pass.entriesAfter} entries, ${timing}`;
  }
  const why = pass.outcome === 'failed' ? 'failed' : `no-op (${pass.reason ?? 'unknown'})`;
  return `${label}: ${why}${pass.message === undefined ? '' : ` — ${pass.message}`}, ${timing}`;
}

/** `request 14,567 of 191,808 tokens (12,345 counted × 1.18 measured)`: what the decisions were made on. */
function formatRequest(report: TurnReport): string {
  const { request } = report;
  const { calibration } = request;
  const calibrated =
    calibration.source === 'off'
      ? `${formatRoundedCount(request.estimatedTokens)} counted, not calibrated`
      : `${formatRoundedCount(request.estimatedTokens)} counted × ${calibration.factor.toFixed(2)} ${calibration.source === 'measured' ? 'measured' : calibration.source === 'reset' ? 'measured, reset after a compaction' : 'before any usage was reported'}`;
  const path = report.emergency ? '; it did not fit, so the emergency path ran' : '';
  return `request ${formatRoundedCount(request.calibratedTokens)} of ${formatRoundedCount(request.availableTokens)} tokens (${calibrated})${path}${request.fits ? '' : ' — DOES NOT FIT'}`;
}

/**
 * Renders a turn report as the short text spec 004 NFR-U-002 describes: one line per pass with tokens before and
 * after, the change, entries and time, then the operation counts the strategy reported (non-zero ones), its
 * warnings, and the total with the request as the decisions saw it (calibrated, against the tokens available).
 *
 * @example
 * ```text
 * Context compressed (threshold 85% from strategy-default):
 *  - Density (high-density): 18,340 → 15,020 tokens (-18%), 42 → 38 entries, 0.2 ms
 *    done: readWritePairsPruned 4
 *  - Total: 18,340 → 15,020 tokens (-18%) in 0.2 ms; request 17,724 of 191,808 tokens (15,020 counted × 1.18 measured)
 * ```
 */
export function formatTurnReport(report: TurnReport): string {
  const threshold = `threshold ${(report.threshold.value * 100).toFixed(0)}% from ${report.threshold.source}`;
  const turnWarnings = report.warnings.map((warning) => `   warning (${warning.type}): ${warning.message}`);
  if (report.passes.length === 0) {
    return [`Nothing to do (${formatRequest(report)}, ${threshold}).`, ...turnWarnings].join('\n');
  }
  // A turn whose passes all said no must not read as if something was compressed.
  const changed = report.passes.some((pass) => pass.outcome === 'applied');
  const lines = [`${changed ? 'Context compressed' : 'Nothing compressed'} (${threshold}):`];
  for (const pass of report.passes) {
    lines.push(` - ${formatPass(pass)}`);
    const counts = pass.outcome === 'applied' ? formatCounts(pass) : undefined;
    if (counts !== undefined) lines.push(`   done: ${counts}`);
    if (pass.outcome === 'applied' && pass.economics !== undefined) lines.push(`   cache: ${pass.economics.message}`);
    const calls = pass.summarizerCalls ?? [];
    if (calls.length > 0) {
      const input = calls.reduce((sum, call) => sum + call.usage.inputTokens + (call.usage.cacheReadTokens ?? 0) + (call.usage.cacheWriteTokens ?? 0), 0);
      const output = calls.reduce((sum, call) => sum + call.usage.outputTokens, 0);
      const price = pass.summarizerUsd === undefined ? '' : `, $${pass.summarizerUsd.toFixed(4)}`;
      lines.push(`   summarizer: ${calls.length} call${calls.length === 1 ? '' : 's'}, ${formatRoundedCount(input)} tokens in, ${formatRoundedCount(output)} out${price}`);
    }
    for (const warning of pass.warnings) lines.push(`   warning (${warning.type}): ${warning.message}`);
  }
  for (const warning of report.threshold.warnings) lines.push(`   warning (settings): ${warning}`);
  lines.push(...turnWarnings);
  const total = report.passes.reduce((sum, pass) => sum + pass.durationMs, 0);
  lines.push(
    ` - Total: ${formatRoundedCount(report.tokensBefore)} → ${formatRoundedCount(report.tokensAfter)} tokens (${percentChange(report.tokensBefore, report.tokensAfter)}) in ${formatDuration(total)}; ${formatRequest(report)}`,
  );
  return lines.join('\n');
}
