import { formatTable } from '../format-table.js';
import { baselineRowName } from './baseline-replay.js';
import { benchParts } from './bench-parts.js';
import type { BenchCell, BenchFigure, BenchReport, BenchSessionSummary, BenchUnit } from './bench-report.js';

const integer = new Intl.NumberFormat('en-US');

/** A value as the report prints it: ratios with two decimals and `×`, milliseconds with precision that fits. */
export function formatBenchValue(value: number, unit: BenchUnit): string {
  switch (unit) {
    case 'ratio':
      return `${value.toFixed(2)}×`;
    case 'MB':
      return `${value.toFixed(0)} MB`;
    case 'ms':
      return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : integer.format(Math.round(value))} ms`;
  }
}

function formatCell(cell: BenchCell | undefined, unit: BenchUnit): string {
  if (cell === undefined) return '';
  if (cell.value === null) return cell.note === undefined ? '—' : `— (${cell.note})`;
  const mark = cell.met === undefined ? '' : cell.met ? ' ✓' : ' ✗';
  const spread = cell.spread === undefined ? '' : ` ±${formatBenchValue(cell.spread, unit).replace(/×$/, '')}`;
  return `${formatBenchValue(cell.value, unit)}${spread}${mark}`;
}

function formatFigure(figure: BenchFigure): string {
  const goal = figure.goal === null ? 'no goal (for reference)' : `goal ${figure.goal.text}`;
  const header = ['', ...figure.columns];
  const rows = figure.rows.map((row) => [row.name, ...figure.columns.map((column) => formatCell(row.cells.find((cell) => cell.column === column), figure.unit))]);
  return [`${figure.title} — ${goal}`, formatTable(header, rows)].join('\n');
}

/** Slowest ÷ fastest tokenization pass of a session above which the report says the machine's speed moved. */
const unsteadyMachine = 1.25;

/** `61.0–175 ms`: the fastest and slowest of a session's passes. */
function formatPassRange(session: BenchSessionSummary): string {
  const { fastest, slowest } = session.tokenizationRangeMs;
  return `${formatBenchValue(fastest, 'ms').replace(' ms', '')}–${formatBenchValue(slowest, 'ms')}`;
}

/** Where a session's pass figure comes from: the range over the run, or one pass when no replay ran (`--only`). */
function formatPassSpread(session: BenchSessionSummary): string {
  const { fastest, slowest } = session.tokenizationRangeMs;
  return fastest === slowest ? 'one timed pass' : `${formatPassRange(session)} over the run`;
}

const sourceLine: Record<BenchReport['source'], string> = {
  corpus: 'the largest sessions of the corpus',
  paths: 'the given transcripts, largest first',
  demo: 'the built-in demo transcript: no corpus here (../shared/corpus, or set CTX_CORPUS) and no paths given; pass your own sessions as paths',
};

/**
 * Renders a `ctx bench` report for the terminal: the sessions, what was and was not measured, then every figure as a
 * table with its goal in the title and each value marked ✓ (meets it) or ✗ (misses it).
 *
 * @param report - What {@link runBench} measured.
 */
export function formatBenchReport(report: BenchReport): string {
  const sessions = report.sessions.map(
    (session) =>
      `  ${session.key}  ${session.label}: ${(session.bytes / 1_000_000).toFixed(1)} MB, ${integer.format(session.entries)} entries, ${integer.format(session.tokens)} tokens, window ${integer.format(session.window)}, one tokenization pass ${formatBenchValue(session.tokenizationMs, 'ms')} (${formatPassSpread(session)})`,
  );
  const drifted = report.sessions.filter((session) => session.tokenizationRangeMs.slowest > unsteadyMachine * session.tokenizationRangeMs.fastest);
  const lines = [
    `ctx bench (${report.tokenizer}) on ${sourceLine[report.source]}:`,
    ...sessions,
    ...(drifted.length === 0
      ? []
      : [
          `The machine's speed moved during this run (a tokenization pass of ${drifted.map((session) => `${session.key} took ${formatPassRange(session)}`).join(', of ')}): a value within its ± of a goal is not decided by one run; run again on a quieter machine.`,
        ]),
    `Measured: ${report.measured.join(', ') || 'nothing'}.`,
    ...(report.parts.length === benchParts.length ? [] : [`Only these parts of the run (--only): ${report.parts.join(', ')}; the others' figures are left out.`]),
    ...(report.parts.includes('replay')
      ? [
          `${baselineRowName}: each session replayed with a window no session reaches, so no strategy ever runs — what every replay costs before a strategy does anything; for reference, held to no goal.`,
        ]
      : []),
    ...report.skipped.map((skipped) => `Not measured: ${skipped.name} (${skipped.reason}).`),
  ];
  for (const figure of report.figures) lines.push('', formatFigure(figure));
  // A replay or call that failed leaves its cells without a value: not a value that meets its goal.
  const failed = report.figures.reduce(
    (total, figure) => total + figure.rows.reduce((sum, row) => sum + row.cells.filter((cell) => cell.failed === true).length, 0),
    0,
  );
  lines.push('', `Peak memory of this process: ${formatBenchValue(report.peakRssBytes / (1024 * 1024), 'MB')} (resident set).`);
  if (report.missed > 0) lines.push(`✗ ${report.missed} ${report.missed === 1 ? 'value misses its goal' : 'values miss their goals'}.`);
  if (failed > 0) lines.push(`✗ ${failed} ${failed === 1 ? 'value' : 'values'} could not be measured: a replay or call failed (the reasons are on stderr).`);
  if (report.missed === 0 && failed === 0) lines.push('Every measured value meets its goal.');
  return lines.join('\n');
}
