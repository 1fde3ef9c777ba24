import { relative } from 'node:path';
import { createTokenCounter, formatTurnReport } from '@ctx/core';
import { CliError, type CliIo } from '../cli-io.js';
import { compareStrategies, type StrategyComparison } from '../compare-strategies.js';
import { claudeCodeProjectsDirectory, findRecentClaudeCodeSessions } from '../default-transcripts.js';
import { demoTranscriptPath } from '../demo-transcript.js';
import { collectTranscripts, type CollectedTranscripts } from '../collect-transcripts.js';
import { describeEmptyConversation } from '../empty-conversation.js';
import { formatTable } from '../format-table.js';
import { sumOperationCounts, summarizeOperations } from '../operation-counts.js';
import { createProgress } from '../progress.js';
import { readTranscriptFile, type LoadedTranscript } from '../read-transcripts.js';
import { reportSkippedSummary, reportSkippedTranscripts } from '../report-skipped-transcripts.js';
import { resolveStrategies, type StrategyCommandOptions } from '../resolve-strategies.js';
import { createTokenizer, type TokenizerName } from '../tokenizers.js';
import { MAX_RUNS, validateRunOptions } from '../validate-run-options.js';

/** Options of `ctx compare`, as parsed from the command line. */
export interface CompareCommandOptions extends StrategyCommandOptions {
  readonly window?: number;
  readonly budget?: number;
  readonly threshold?: number;
  readonly tokenizer: TokenizerName;
  readonly runs: number;
  readonly json: boolean;
}

/** One row of `ctx compare --json`: fractions in 0..1. */
export interface CompareResultRow {
  readonly file: string;
  readonly format: string;
  readonly strategy: string;
  readonly outcome: StrategyComparison['outcome'];
  readonly detail?: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly reduction: number;
  readonly entriesBefore: number;
  readonly entriesAfter: number;
  readonly userTextsKept: number;
  readonly validAnthropic: boolean;
  readonly validOpenAI: boolean;
  readonly fileStatesKept: number;
  readonly errorsKept: number;
  /** True when the retention figures count content behind the strategy's references (lossless `expand()`). */
  readonly keptThroughReferences: boolean;
  readonly thinkingKept: number;
  /** What the strategy reported doing, summed over its passes (non-zero counts only). */
  readonly operations: Readonly<Record<string, number>>;
  readonly ms: number;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;

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

function toRow(transcript: LoadedTranscript, result: StrategyComparison): CompareResultRow {
  return {
    file: transcript.label,
    format: transcript.format,
    strategy: result.strategy,
    outcome: result.outcome,
    ...(result.detail === undefined ? {} : { detail: result.detail }),
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    reduction: result.reduction,
    entriesBefore: result.entriesBefore,
    entriesAfter: result.entriesAfter,
    userTextsKept: result.retention.userTexts.fraction,
    validAnthropic: result.newProblems.anthropic.length === 0,
    validOpenAI: result.newProblems.openai.length === 0,
    fileStatesKept: result.retention.fileStates.fraction,
    errorsKept: result.retention.errors.fraction,
    keptThroughReferences: result.retentionThroughReferences,
    thinkingKept: result.retention.thinking.fraction,
    operations: sumOperationCounts(result.report),
    ms: Math.round(result.milliseconds * 100) / 100,
  };
}

function shortName(label: string): string {
  const relativePath = relative(process.cwd(), label);
  const name = relativePath.length < label.length ? relativePath : label;
  return name.length > 48 ? `…${name.slice(-47)}` : name;
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
  const tokenCounter = createTokenCounter(await createTokenizer(options.tokenizer));
  const collected = await chooseTranscripts(paths, io);
  const { transcripts, demo } = collected;
  reportSkippedTranscripts(collected, io);

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

  const allGood = collected.skipped.length === 0 && rows.every((row) => row.outcome !== 'failed' && row.validAnthropic && row.validOpenAI);
  if (options.json) {
    io.stdout(JSON.stringify({ results: rows, ...(collected.skipped.length === 0 ? {} : { skipped: collected.skipped }) }, null, 2));
    reportSkippedSummary(collected, io);
    return allGood ? 0 : 1;
  }
  if (rows.length === 0) {
    reportSkippedSummary(collected, io);
    return 1;
  }

  const first = transcripts[0];
  if (transcripts.length === 1 && first !== undefined) {
    const tokens = rows[0]?.tokensBefore ?? 0;
    io.stdout(
      [
        `Transcript: ${demo ? `built-in demo (${relative(process.cwd(), demoTranscriptPath) || demoTranscriptPath})` : `${first.label} (${first.format})`}`,
        `  ${first.conversation.history.length} entries · ${integer.format(tokens)} tokens (${tokenCounter.tokenizer.name})`,
        `Context window: ${integer.format(options.window ?? tokens)} tokens${options.window === undefined ? " (the transcript's own size; set with --window)" : ''}${options.budget === undefined ? '' : ` · target ${integer.format(options.budget)} tokens`}`,
        '',
      ].join('\n'),
    );
  }
  const multiple = transcripts.length > 1;
  // A footnote mark on some rows; the others get a space so the figures stay aligned.
  const markable = rows.some((row) => row.keptThroughReferences);
  const marked = (row: CompareResultRow, cell: string) => (markable ? `${cell}${row.keptThroughReferences ? '*' : ' '}` : cell);
  io.stdout(
    formatTable(
      [
        ...(multiple ? ['transcript'] : []),
        'strategy',
        'outcome',
        'tokens before → after',
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
        row.outcome === 'applied' ? 'applied' : `${row.outcome} (${row.detail ?? ''})`,
        `${integer.format(row.tokensBefore)} → ${integer.format(row.tokensAfter)}`,
        percent(row.reduction),
        percent(row.userTextsKept),
        `${row.validAnthropic ? 'yes' : 'NO'}/${row.validOpenAI ? 'yes' : 'NO'}`,
        marked(row, percent(row.fileStatesKept)),
        marked(row, percent(row.errorsKept)),
        row.ms.toFixed(2),
      ]),
    ),
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
            summary.byFormat.map(({ format, fired, transcripts }) => `${format} ${fired}/${transcripts}`).join(', '),
          ]),
        ),
      );
    }
  }
  reportSkippedSummary(collected, io);
  return allGood ? 0 : 1;
}
