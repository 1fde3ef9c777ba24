import { relative } from 'node:path';
import { formatTurnReport, type Conversation } from '@ctx/core';
import { CliError, type CliIo } from '../cli-io.js';
import { compareStrategies, type Comparison } from '../compare-strategies.js';
import { demoTranscriptPath } from '../demo-transcript.js';
import { formatTable } from '../format-table.js';
import { readTranscriptFile, readTranscripts, type LoadedTranscript } from '../read-transcripts.js';
import { selectStrategies } from '../select-strategies.js';
import { createTokenizer, type TokenizerName } from '../tokenizers.js';

/** Options of `ctx compare`, as parsed from the command line. */
export interface CompareCommandOptions {
  readonly strategies?: string;
  readonly window?: number;
  readonly threshold?: number;
  readonly tokenizer: TokenizerName;
  readonly runs: number;
  readonly json: boolean;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;

function describeSource(transcript: LoadedTranscript, isDemo: boolean): string {
  return isDemo
    ? `built-in demo (${relative(process.cwd(), demoTranscriptPath) || demoTranscriptPath})`
    : `${transcript.label} (${transcript.format})`;
}

function formatComparison(
  source: string,
  conversation: Conversation,
  comparison: Comparison,
  tokenizerName: string,
  windowGiven: boolean,
): string {
  const lines = [
    `Transcript: ${source}`,
    `  ${comparison.entries} entries · ${integer.format(comparison.tokens)} tokens (${tokenizerName}), of which ${integer.format(comparison.overheadTokens)} are the system prompt and ${conversation.tools?.length ?? 0} tool definitions`,
    `Context window: ${integer.format(comparison.window)} tokens${windowGiven ? '' : " (the transcript's own size; set with --window)"}`,
    '',
    formatTable(
      ['strategy', 'outcome', 'tokens before → after', 'reduction', 'entries', 'pairs valid', 'ms'],
      comparison.results.map((result) => [
        result.strategy,
        result.outcome === 'applied' ? 'applied' : `${result.outcome} (${result.detail ?? ''})`,
        `${integer.format(result.tokensBefore)} → ${integer.format(result.tokensAfter)}`,
        percent(result.reduction),
        `${result.entriesBefore} → ${result.entriesAfter}`,
        result.pairValid ? 'yes' : 'NO',
        result.milliseconds.toFixed(2),
      ]),
    ),
  ];
  for (const result of comparison.results) {
    if (result.report === undefined) continue;
    lines.push('', `${result.strategy}:`, formatTurnReport(result.report));
  }
  return lines.join('\n');
}

/** `ctx compare [file…]`: runs each strategy on each transcript and prints one table per transcript. */
export async function runCompareCommand(files: readonly string[], options: CompareCommandOptions, io: CliIo): Promise<number> {
  if (options.window !== undefined && !(Number.isInteger(options.window) && options.window > 0)) {
    throw new CliError(`--window expects a positive whole number of tokens, got ${options.window}`);
  }
  if (options.threshold !== undefined && !(options.threshold > 0 && options.threshold <= 1)) {
    throw new CliError(`--threshold expects a fraction in (0, 1], got ${options.threshold}`);
  }
  if (!(Number.isInteger(options.runs) && options.runs >= 1)) {
    throw new CliError(`--runs expects a whole number ≥ 1, got ${options.runs}`);
  }
  const strategies = selectStrategies(options.strategies);
  const tokenizer = await createTokenizer(options.tokenizer);
  const isDemo = files.length === 0;
  const transcripts = isDemo ? await readTranscriptFile(demoTranscriptPath) : await readTranscripts(files);
  const outputs: unknown[] = [];
  let allValid = true;
  for (const transcript of transcripts) {
    const { conversation } = transcript;
    const comparison = await compareStrategies({
      conversation,
      strategies,
      tokenizer,
      runs: options.runs,
      ...(options.window === undefined ? {} : { window: options.window }),
      ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    });
    allValid &&= comparison.results.every((result) => result.pairValid && result.outcome !== 'failed');
    if (options.json) {
      outputs.push({
        file: transcript.label,
        format: transcript.format,
        entries: comparison.entries,
        tokens: comparison.tokens,
        overheadTokens: comparison.overheadTokens,
        window: comparison.window,
        tokenizer: tokenizer.name,
        results: comparison.results.map(({ report: _report, ...result }) => result),
      });
    } else {
      if (outputs.length > 0) io.stdout('');
      io.stdout(
        formatComparison(describeSource(transcript, isDemo), conversation, comparison, tokenizer.name, options.window !== undefined),
      );
      outputs.push(transcript.label);
    }
  }
  if (options.json) io.stdout(JSON.stringify({ transcripts: outputs }, null, 2));
  return allValid ? 0 : 1;
}
