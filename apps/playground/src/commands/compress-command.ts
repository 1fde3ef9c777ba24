import { createTokenCounter, formatTurnReport, type FormatWarning } from '@ctx/core';
import { CliError, type CliIo } from '../cli-io.js';
import { createCliSummarizer, requireSummarizerFor, type SummarizerCommandOptions } from '../create-cli-summarizer.js';
import { measureCompression, type CompressionMeasurement } from '../measure-compression.js';
import { requireEntries } from '../empty-conversation.js';
import { encodeConversation, type OutputFormat } from '../output-formats.js';
import { resolveOutputTarget } from '../output-target.js';
import { readTranscripts, type LoadedTranscript, type TranscriptView } from '../read-transcripts.js';
import { noteMalformedLinesOnStderr, printInputWarnings, refuseMalformedLines, toInputWarningsJson } from '../report-input-warnings.js';
import { resolveStrategies, type StrategyCommandOptions } from '../resolve-strategies.js';
import { runPipeline } from '../run-pipeline.js';
import { escapeForTerminal } from '../terminal-text.js';
import { createTokenizer, type TokenizerName } from '../tokenizers.js';
import { validateRunOptions } from '../validate-run-options.js';
import { writeFileAtomically } from '../write-file-atomically.js';

/** Options of `ctx compress`, as parsed from the command line. */
export interface CompressCommandOptions extends StrategyCommandOptions, SummarizerCommandOptions {
  readonly window?: number;
  readonly budget?: number;
  readonly threshold?: number;
  readonly epoch: 'last' | 'all';
  readonly out?: string;
  /** `--format`; without it the `--out` name decides (see `outputFormatFor`). */
  readonly format?: OutputFormat;
  /** `--force`: replace an existing `--out` file. */
  readonly force?: boolean;
  readonly tokenizer: TokenizerName;
  readonly json: boolean;
  /** `--strict`: a malformed input line is an error (exit 1, nothing compressed or written) instead of a warning. */
  readonly strict?: boolean;
}

const integer = new Intl.NumberFormat('en-US');
const percent = (fraction: number) => `${(fraction * 100).toFixed(0)}%`;

/** Splits `file#<line>` into the file and the line selector. */
function splitSelector(path: string): { file: string; selector: string | undefined } {
  const hash = path.lastIndexOf('#');
  const selector = hash > 0 && /^\d+$/.test(path.slice(hash + 1)) ? path.slice(hash + 1) : undefined;
  return { file: selector === undefined ? path : path.slice(0, hash), selector };
}

/** Picks the one conversation to compress: `file#<line>` selects a session of a multi-session file. */
async function readOne(path: string, view: TranscriptView): Promise<LoadedTranscript> {
  const { file, selector } = splitSelector(path);
  const transcripts = await readTranscripts([file], { view });
  if (selector !== undefined) {
    const chosen = transcripts.find((transcript) => transcript.label === `${file}#${selector}`);
    if (chosen === undefined) {
      throw new CliError(`${path}: no conversation at line ${selector}; the file holds ${transcripts.map((transcript) => transcript.label).join(', ')}`);
    }
    return requireEntries(chosen);
  }
  const [only, ...rest] = transcripts;
  if (only === undefined) throw new CliError(`${path}: no conversation found`);
  if (rest.length > 0) {
    throw new CliError(`${path} holds ${transcripts.length} conversations; pick one: ${transcripts.map((transcript) => transcript.label).join(', ')}`);
  }
  return requireEntries(only);
}

function describeRetention(measurement: CompressionMeasurement): string {
  const { retention, newProblems } = measurement;
  const measure = (name: string, value: { kept: number; total: number; fraction: number }) =>
    `${name} ${percent(value.fraction)} (${integer.format(value.kept)}/${integer.format(value.total)})`;
  const validity = (problems: readonly { message: string }[]) =>
    problems.length === 0 ? 'yes' : `NO (${integer.format(problems.length)}: ${problems[0]?.message ?? ''})`;
  return [
    `Retention: ${[
      measure('user texts', retention.userTexts),
      measure('file states', retention.fileStates),
      measure('errors', retention.errors),
      measure('thinking', retention.thinking),
    ].join(', ')}${measurement.retentionThroughReferences ? ' (content behind lossless references counts as kept)' : ''}`,
    `Valid request: Anthropic ${validity(newProblems.anthropic)}, OpenAI ${validity(newProblems.openai)}`,
  ].join('\n');
}

/**
 * `ctx compress <file> --strategy a[,b…]`: runs the strategies in order through the orchestrator, prints the
 * per-pass report (spec 004 NFR-U-002) with retention and validity, and optionally writes the result.
 */
export async function runCompressCommand(path: string, options: CompressCommandOptions, io: CliIo): Promise<number> {
  validateRunOptions(options);
  // Checked before anything runs: a refused --out costs the user nothing and touches nothing.
  const target =
    options.out === undefined
      ? undefined
      : await resolveOutputTarget({
          out: options.out,
          input: splitSelector(path).file,
          ...(options.format === undefined ? {} : { format: options.format }),
          force: options.force ?? false,
        });
  const strategies = await resolveStrategies(options);
  if (strategies.length === 0) throw new CliError('--strategy names no strategy');
  const summarizer = await createCliSummarizer(options);
  requireSummarizerFor(strategies.map((create) => create()), summarizer);
  const tokenCounter = createTokenCounter(await createTokenizer(options.tokenizer));
  const transcript = await readOne(path, options.epoch);
  // Refused before anything runs or is written: --strict compresses nothing when an input line could not be read.
  if (options.strict === true && refuseMalformedLines([transcript], io)) return 1;
  const { conversation } = transcript;
  const historyTokens = tokenCounter.countEntries(conversation.history);
  const tokens = historyTokens + tokenCounter.countOverhead(conversation.system, conversation.tools);
  const window = options.window ?? Math.max(1, tokens);
  const result = await runPipeline({
    conversation,
    strategies,
    tokenCounter,
    window,
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(summarizer === undefined ? {} : { summarizer }),
  });
  const measurement = measureCompression(conversation, result.after, tokenCounter, result.readable);

  let written: { path: string; format: OutputFormat; warnings: readonly FormatWarning[] } | undefined;
  if (target !== undefined) {
    const { value, warnings } = encodeConversation(result.after, target.format);
    try {
      await writeFileAtomically(target.path, [`${JSON.stringify(value, null, 2)}\n`]);
    } catch (error) {
      throw new CliError(`--out ${target.path}: cannot write (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    written = { path: target.path, format: target.format, warnings };
  }

  const valid = measurement.newProblems.anthropic.length === 0 && measurement.newProblems.openai.length === 0;
  if (options.json) {
    io.stdout(
      JSON.stringify(
        {
          file: transcript.label,
          format: transcript.format,
          epoch: options.epoch,
          window,
          ...(options.budget === undefined ? {} : { budget: options.budget }),
          reports: result.reports,
          tokensBefore: measurement.tokensBefore,
          tokensAfter: measurement.tokensAfter,
          historyTokensBefore: measurement.historyTokensBefore,
          historyTokensAfter: measurement.historyTokensAfter,
          reduction: measurement.reduction,
          entriesBefore: measurement.entriesBefore,
          entriesAfter: measurement.entriesAfter,
          retention: measurement.retention,
          newProblems: measurement.newProblems,
          ...(written === undefined ? {} : { out: written }),
          warnings: toInputWarningsJson(transcript.warnings),
        },
        (_key, value: unknown) => (value instanceof Error ? { name: value.name, message: value.message } : value),
        2,
      ),
    );
    noteMalformedLinesOnStderr([transcript], io);
    return valid ? 0 : 1;
  }

  const overheadTokens = tokens - historyTokens;
  const lines = [
    `Transcript: ${escapeForTerminal(transcript.label)} (${transcript.format}, ${options.epoch === 'all' ? 'whole session' : 'last epoch'}) · ${integer.format(conversation.history.length)} entries · ${integer.format(tokens)} request tokens = ${integer.format(historyTokens)} history + ${integer.format(overheadTokens)} system and tools`,
    `Context window: ${integer.format(window)} tokens${options.window === undefined ? " (the transcript's own size)" : ''}${options.budget === undefined ? '' : ` · target ${integer.format(options.budget)} request tokens`}`,
    '',
    ...result.reports.map(formatTurnReport),
    '',
    `Result: ${integer.format(measurement.tokensBefore)} → ${integer.format(measurement.tokensAfter)} request tokens (${percent(measurement.reduction)} removed; history ${integer.format(measurement.historyTokensBefore)} → ${integer.format(measurement.historyTokensAfter)}, system and tools ${integer.format(overheadTokens)}), ${integer.format(measurement.entriesBefore)} → ${integer.format(measurement.entriesAfter)} entries`,
    describeRetention(measurement),
  ];
  if (written !== undefined) {
    lines.push(
      `Wrote ${written.path} (${written.format})${written.warnings.length === 0 ? '' : `; ${integer.format(written.warnings.length)} conversion warnings, e.g. ${written.warnings[0]?.message ?? ''}`}`,
    );
  }
  io.stdout(lines.join('\n'));
  printInputWarnings([transcript], io);
  return valid ? 0 : 1;
}
