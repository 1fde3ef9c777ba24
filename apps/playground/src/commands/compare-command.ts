import { relative } from 'node:path';
import { createTokenCounter, formatTurnReport } from '@ctx/core';
import { CliError, type CliIo } from '../cli-io.js';
import { createCliSummarizer, type SummarizerCommandOptions } from '../create-cli-summarizer.js';
import { compareStrategies, type StrategyComparison } from '../compare-strategies.js';
import { claudeCodeProjectsDirectory, findRecentClaudeCodeSessions } from '../default-transcripts.js';
import { demoTranscriptPath } from '../demo-transcript.js';
import { collectTranscripts, type CollectedTranscripts } from '../collect-transcripts.js';
import { describeEmptyConversation } from '../empty-conversation.js';
import { formatTable } from '../format-table.js';
import { sumOperationCounts, summarizeOperations } from '../operation-counts.js';
import { createProgress } from '../progress.js';
import { readTranscriptFile, type LoadedTranscript } from '../read-transcripts.js';
import { noteMalformedLinesOnStderr, printInputWarnings, refuseMalformedLines, toInputWarningsJson, type InputWarningJson } from '../report-input-warnings.js';
import { reportSkippedSummary, reportSkippedTranscripts } from '../report-skipped-transcripts.js';
import { escapeForTerminal } from '../terminal-text.js';
import { resolveStrategies, type StrategyCommandOptions } from '../resolve-strategies.js';
import { createTokenizer, type TokenizerName } from '../tokenizers.js';
import { MAX_RUNS, validateRunOptions } from '../validate-run-options.js';

/** Options of `ctx compare`, as parsed from the command line. */
export interface CompareCommandOptions extends StrategyCommandOptions, SummarizerCommandOptions {
  readonly window?: number;
  readonly budget?: number;
  readonly threshold?: number;
  readonly tokenizer: TokenizerName;
  readonly runs: number;
  readonly json: boolean;
  /** `--strict`: a malformed input line is an error (exit 1, nothing compared) instead of a warning. */
  readonly strict?: boolean;
}

/**
 * One row of `ctx compare --json`: fractions in 0..1. Tokens are request tokens (history + system instructions +
 * tool definitions) unless named `history…`. A `failed` strategy produced nothing to measure: its after-figures,
 * retention and validity are `null`, and `detail` has the whole error message.
 */
export interface CompareResultRow {
  readonly file: string;
  readonly format: string;
  readonly strategy: string;
  /** The strategy (or a step of the preset) summarizes with a model; without a summarizer that step did nothing. */
  readonly requiresLLM: boolean;
  readonly outcome: StrategyComparison['outcome'];
  /** For `no-op`, the reason code, e.g. `too-few-compressible`. */
  readonly reason?: string;
  /** For `no-op`, the reason and the strategy's sentence; for `failed`, the whole error message. */
  readonly detail?: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number | null;
  readonly historyTokensBefore: number;
  readonly historyTokensAfter: number | null;
  readonly reduction: number | null;
  readonly entriesBefore: number;
  readonly entriesAfter: number | null;
  readonly userTextsKept: number | null;
  readonly validAnthropic: boolean | null;
  readonly validOpenAI: boolean | null;
  readonly fileStatesKept: number | null;
  readonly errorsKept: number | null;
  /** True when the retention figures count content behind the strategy's references (lossless `expand()`). */
  readonly keptThroughReferences: boolean;
  readonly thinkingKept: number | null;
  /** What the strategy reported doing, summed over its passes (non-zero counts only). */
  readonly operations: Readonly<Record<string, number>>;
  readonly ms: number;
  /** Everything the reader reported about the transcript's input (malformed lines with their numbers, …). */
  readonly warnings: readonly InputWarningJson[];
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const milliseconds = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;
/** What the table shows where a failed strategy has no figure. */
const none = '—';

/**
 * The transcripts to compare: the given paths, else the user's recent Claude Code sessions, else the demo. A file
 * that cannot be used is skipped (reported, exit 1 at the end) unless it is the only path named.
 */
async function chooseTranscripts(paths: readonly string[], io: CliIo): Promise<CollectedTranscripts & { demo: boolean }> {
  const options = { check: describeEmptyConversation };
  if (paths.length > 0) return { ...(await collectTranscripts(paths, options)), demo: false };
  const directory = claudeCodeProjectsDirectory();
  const recent = findRecentClaudeCodeSessions(directory, 5);
  if (recent.length > 0) {
    io.stderr(`ctx: no path given; comparing the ${recent.length} most recent Claude Code sessions in ${directory}`);
    return { ...(await collectTranscripts(recent, options)), demo: false };
  }
  return { transcripts: await readTranscriptFile(demoTranscriptPath), skipped: [], fileCount: 1, demo: true };
}

/**
 * One row of `ctx compare --json` from a strategy's comparison on a transcript; `ctx serve` builds its rows with it
 * too, so the page shows the same figures as the command line.
 */
export function toRow(transcript: LoadedTranscript, result: StrategyComparison): CompareResultRow {
  // A strategy that threw produced nothing: no after-figures, so it can never read as a valid, lossless result.
  const measured = result.outcome !== 'failed';
  const after = <T>(value: T): T | null => (measured ? value : null);
  return {
    file: transcript.label,
    format: transcript.format,
    strategy: result.strategy,
    requiresLLM: result.requiresLLM,
    outcome: result.outcome,
    ...(result.reason === undefined ? {} : { reason: result.reason }),
    ...(result.detail === undefined ? {} : { detail: result.detail }),
    tokensBefore: result.tokensBefore,
    tokensAfter: after(result.tokensAfter),
    historyTokensBefore: result.historyTokensBefore,
    historyTokensAfter: after(result.historyTokensAfter),
    reduction: after(result.reduction),
    entriesBefore: result.entriesBefore,
    entriesAfter: after(result.entriesAfter),
    userTextsKept: after(result.retention.userTexts.fraction),
    validAnthropic: after(result.newProblems.anthropic.length === 0),
    validOpenAI: after(result.newProblems.openai.length === 0),
    fileStatesKept: after(result.retention.fileStates.fraction),
    errorsKept: after(result.retention.errors.fraction),
    keptThroughReferences: measured && result.retentionThroughReferences,
    thinkingKept: after(result.retention.thinking.fraction),
    operations: sumOperationCounts(result.report),
    ms: Math.round(result.milliseconds * 100) / 100,
    warnings: toInputWarningsJson(transcript.warnings),
  };
}

/** The figure cells of one table row: `—` where a failed strategy has no figure; `marked` adds the footnote mark. */
function measureCells(row: CompareResultRow, marked: (cell: string) => string): string[] {
  const fraction = (value: number | null) => (value === null ? none : percent(value));
  const validity = (value: boolean | null) => (value === null ? none : value ? 'yes' : 'NO');
  return [
    `${integer.format(row.tokensBefore)} → ${row.tokensAfter === null ? none : integer.format(row.tokensAfter)}`,
    row.historyTokensAfter === null ? none : integer.format(row.historyTokensAfter),
    fraction(row.reduction),
    fraction(row.userTextsKept),
    `${validity(row.validAnthropic)}/${validity(row.validOpenAI)}`,
    row.fileStatesKept === null ? none : marked(fraction(row.fileStatesKept)),
    row.errorsKept === null ? none : marked(fraction(row.errorsKept)),
  ];
}

function shortName(label: string): string {
  const relativePath = relative(process.cwd(), label);
  const name = relativePath.length < label.length ? relativePath : label;
  const escaped = escapeForTerminal(name);
  return escaped.length > 48 ? `…${escaped.slice(-47)}` : escaped;
}

/**
 * `ctx compare [path…]`: runs each strategy on each transcript and prints one table — tokens before → after,
 * reduction, user texts kept verbatim, valid for Anthropic and OpenAI, latest file states kept, errors kept, time.
 */
export async function runCompareCommand(paths: readonly string[], options: CompareCommandOptions, io: CliIo): Promise<number> {
  validateRunOptions(options);
  if (!(Number.isInteger(options.runs) && options.runs >= 1 && options.runs <= MAX_RUNS)) {
    throw new CliError(`--runs expects a whole number from 1 to ${MAX_RUNS}, got ${options.runs}`);
  }
  const strategies = await resolveStrategies(options);
  const summarizer = await createCliSummarizer(options);
  const tokenCounter = createTokenCounter(await createTokenizer(options.tokenizer));
  const collected = await chooseTranscripts(paths, io);
  const { transcripts, demo } = collected;
  reportSkippedTranscripts(collected, io);
  // Refused before any strategy runs: --strict compares nothing when an input line could not be read.
  if (options.strict === true && refuseMalformedLines(transcripts, io)) {
    reportSkippedSummary(collected, io);
    return 1;
  }

  const rows: CompareResultRow[] = [];
  const reports: { label: string; strategy: string; report: string }[] = [];
  const progress = createProgress(transcripts.length);
  for (const transcript of transcripts) {
    progress.advance(shortName(transcript.label));
    const comparison = await compareStrategies({
      conversation: transcript.conversation,
      strategies,
      tokenizer: tokenCounter,
      runs: options.runs,
      ...(summarizer === undefined ? {} : { summarizer }),
      ...(options.window === undefined ? {} : { window: options.window }),
      ...(options.budget === undefined ? {} : { budget: options.budget }),
      ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    });
    for (const result of comparison.results) {
      rows.push(toRow(transcript, result));
      if (result.report !== undefined) {
        reports.push({ label: transcript.label, strategy: result.strategy, report: formatTurnReport(result.report) });
      }
    }
  }
  progress.done();

  const allGood =
    collected.skipped.length === 0 && rows.every((row) => row.outcome !== 'failed' && row.validAnthropic === true && row.validOpenAI === true);
  if (options.json) {
    io.stdout(JSON.stringify({ results: rows, ...(collected.skipped.length === 0 ? {} : { skipped: collected.skipped }) }, null, 2));
    noteMalformedLinesOnStderr(transcripts, io);
    reportSkippedSummary(collected, io);
    return allGood ? 0 : 1;
  }
  if (rows.length === 0) {
    printInputWarnings(transcripts, io);
    reportSkippedSummary(collected, io);
    return 1;
  }

  const first = transcripts[0];
  if (transcripts.length === 1 && first !== undefined) {
    const tokens = rows[0]?.tokensBefore ?? 0;
    const historyTokens = rows[0]?.historyTokensBefore ?? 0;
    io.stdout(
      [
        `Transcript: ${demo ? `built-in demo (${relative(process.cwd(), demoTranscriptPath) || demoTranscriptPath})` : `${escapeForTerminal(first.label)} (${first.format})`}`,
        `  ${integer.format(first.conversation.history.length)} entries · ${integer.format(tokens)} request tokens = ${integer.format(historyTokens)} history + ${integer.format(tokens - historyTokens)} system and tools (${tokenCounter.tokenizer.name})`,
        `Context window: ${integer.format(options.window ?? tokens)} tokens${options.window === undefined ? " (the transcript's own size; set with --window)" : ''}${options.budget === undefined ? '' : ` · target ${integer.format(options.budget)} request tokens`}`,
        '',
      ].join('\n'),
    );
  }
  const multiple = transcripts.length > 1;
  // A footnote mark on some rows; the others get a space so the figures stay aligned.
  const markable = rows.some((row) => row.keptThroughReferences);
  const marked = (row: CompareResultRow) => (cell: string) => (markable ? `${cell}${row.keptThroughReferences ? '*' : ' '}` : cell);
  // Whole no-op and failure messages go under the table, numbered, so a long one does not stretch every row.
  const notes: string[] = [];
  const noteFor = (row: CompareResultRow) => {
    if (row.outcome === 'applied' || row.detail === undefined || row.detail === row.reason) return '';
    // Each line of a multi-line message escaped on its own, the next ones indented under the first.
    const text = `${row.strategy}${multiple ? ` on ${shortName(row.file)}` : ''}: ${row.detail
      .split('\n')
      .map((line) => escapeForTerminal(line))
      .join('\n    ')}`;
    const known = notes.indexOf(text);
    return ` [${known === -1 ? notes.push(text) : known + 1}]`;
  };
  io.stdout(
    formatTable(
      [
        ...(multiple ? ['transcript'] : []),
        'strategy',
        'outcome',
        'request tokens before → after',
        'history tokens after',
        'reduction',
        'user texts',
        'valid A/O',
        'file states',
        'errors',
        'ms',
      ],
      rows.map((row) => [
        ...(multiple ? [shortName(row.file)] : []),
        row.strategy,
        `${row.outcome === 'no-op' ? `no-op (${row.reason ?? ''})` : row.outcome}${noteFor(row)}`,
        ...measureCells(row, marked(row)),
        milliseconds.format(row.ms),
      ]),
    ),
  );
  notes.forEach((note, index) => io.stdout(`[${index + 1}] ${note}`));
  io.stdout(
    'Request tokens: the history plus the system instructions and tool definitions (which compression leaves alone); the strategies\' own figures, e.g. in their warnings, count the history alone.',
  );
  const throughReferences = [...new Set(rows.filter((row) => row.keptThroughReferences).map((row) => row.strategy))];
  if (throughReferences.length > 0) {
    io.stdout(
      `* ${throughReferences.join(', ')}: content replaced by a reference counts as kept — the model reads it at the lines the reference points to, and expand() restores it exactly.`,
    );
  }
  if (!multiple) {
    for (const { strategy, report } of reports) io.stdout(`\n${strategy}:\n${report}`);
  } else {
    const summaries = summarizeOperations(rows);
    if (summaries.length > 0) {
      io.stdout('\nWhat the strategies did (total, then transcripts where it happened per format):');
      io.stdout(
        formatTable(
          ['strategy', 'operation', 'total', 'where'],
          summaries.map((summary) => [
            summary.strategy,
            summary.operation,
            integer.format(summary.total),
            summary.byFormat.map(({ format, fired, transcripts }) => `${format} ${integer.format(fired)}/${integer.format(transcripts)}`).join(', '),
          ]),
        ),
      );
    }
  }
  printInputWarnings(transcripts, io);
  reportSkippedSummary(collected, io);
  return allGood ? 0 : 1;
}
