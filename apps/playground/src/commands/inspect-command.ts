import { analyzeCompacts } from '@ctx/format-claude-code';
import { CliError, type CliIo } from '../cli-io.js';
import { describeEmptyConversation } from '../empty-conversation.js';
import { inspectTranscript, type TranscriptInspection } from '../inspect-transcript.js';
import { collectTranscripts } from '../collect-transcripts.js';
import type { LoadedTranscript } from '../read-transcripts.js';
import { formatInputWarnings, noteMalformedLinesOnStderr, refuseMalformedLines } from '../report-input-warnings.js';
import { reportSkippedSummary, reportSkippedTranscripts } from '../report-skipped-transcripts.js';
import { escapeForTerminal } from '../terminal-text.js';
import { createTokenizer, type TokenizerName } from '../tokenizers.js';

const integer = new Intl.NumberFormat('en-US');

function describeCounts(counts: Readonly<Partial<Record<string, number>>>): string {
  const parts = Object.entries(counts)
    .filter((entry): entry is [string, number] => (entry[1] ?? 0) > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([key, value]) => `${key} ${integer.format(value)}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

function formatInspection(transcript: LoadedTranscript, inspection: TranscriptInspection & { readonly problem?: string }): string {
  const number = (value: number) => integer.format(value);
  const compactions =
    inspection.compactions === 0
      ? '0'
      : `${number(inspection.compactions)} (${inspection.compactionDetails
          .map((detail) => `${detail.trigger ?? detail.form}${detail.preTokens === undefined ? '' : `, ${integer.format(detail.preTokens)} tokens before`}`)
          .join('; ')})`;
  return [
    `${escapeForTerminal(inspection.file)} — ${inspection.format}`,
    `  entries ${number(inspection.entries)} (human ${number(inspection.bySpeaker.human)}, ai ${number(inspection.bySpeaker.ai)}, tool ${number(inspection.bySpeaker.tool)}) · ${number(inspection.tokens)} request tokens = ${number(inspection.historyTokens)} history + ${number(inspection.tokens - inspection.historyTokens)} system and tools (${inspection.tokenizer})`,
    `  tool calls ${number(inspection.toolCalls)} (${describeCounts(inspection.toolCallsByKind)}) · ${number(inspection.toolErrors)} error results`,
    `  epochs ${number(inspection.epochs)} · compactions ${compactions} · orphans ${number(inspection.orphans)} · sidechains ${number(inspection.sidechains)} · abandoned branches ${number(inspection.abandonedBranches)} · malformed lines ${number(inspection.malformedLines)}`,
    `  files: ${number(inspection.filesRead)} read, ${number(inspection.filesWritten)} written, ${number(inspection.filesReread)} read more than once${inspection.filesReread === 0 ? '' : ` (up to ${number(inspection.maxReadsOfOneFile)} reads of one file)`}`,
    // Every warning, each with its line number: inspect is where a user looks at what the reader could not read.
    ...formatInputWarnings(transcript, { malformedLimit: undefined, others: 'all', indent: '  ' }),
    ...(inspection.problem === undefined ? [] : [`  warning: ${inspection.problem}`]),
  ].join('\n');
}

/** Options of `ctx inspect`, as parsed from the command line. */
export interface InspectCommandOptions {
  readonly json: boolean;
  readonly tokenizer: TokenizerName;
  /** `--strict`: a malformed input line makes the run fail (exit 1) after the report. */
  readonly strict?: boolean;
}

/**
 * `ctx inspect <file|dir…>`: what a transcript contains, per file, with every warning of the reader (line numbers
 * included); compaction statistics across Claude Code sessions.
 */
export async function runInspectCommand(paths: readonly string[], options: InspectCommandOptions, io: CliIo): Promise<number> {
  if (paths.length === 0) throw new CliError('inspect expects at least one transcript file or directory');
  const tokenizer = await createTokenizer(options.tokenizer);
  const collected = await collectTranscripts(paths);
  const { transcripts } = collected;
  reportSkippedTranscripts(collected, io);
  // An empty conversation is still described (what was read, how many malformed lines), but flagged: exit 1.
  const described = transcripts.map((transcript) => {
    const empty = describeEmptyConversation(transcript);
    const inspection = {
      ...inspectTranscript(transcript, tokenizer),
      ...(empty === undefined ? {} : { problem: `no entries — nothing to compress or send (${empty})` }),
    };
    return { transcript, inspection };
  });
  const inspections = described.map(({ inspection }) => inspection);
  const failed = collected.skipped.length > 0 || inspections.some((inspection) => inspection.problem !== undefined);
  const sessions = transcripts.flatMap((transcript) =>
    transcript.claudeCode === undefined || transcript.claudeCode.kind !== 'session' ? [] : [transcript.claudeCode],
  );
  const compactStatistics = sessions.length === 0 ? undefined : analyzeCompacts(sessions);
  if (options.json) {
    io.stdout(
      JSON.stringify(
        {
          files: inspections,
          ...(compactStatistics === undefined ? {} : { compactStatistics }),
          ...(collected.skipped.length === 0 ? {} : { skipped: collected.skipped }),
        },
        null,
        2,
      ),
    );
    noteMalformedLinesOnStderr(transcripts, io);
    // Inspect has nothing to protect, so --strict still shows the report, then fails the run.
    const refused = options.strict === true && refuseMalformedLines(transcripts, io);
    reportSkippedSummary(collected, io);
    return failed || refused ? 1 : 0;
  }
  if (inspections.length > 0) {
    io.stdout(described.map(({ transcript, inspection }) => formatInspection(transcript, inspection)).join('\n\n'));
  }
  if (compactStatistics !== undefined && sessions.length > 1) {
    io.stdout(
      `\nCompactions across ${integer.format(compactStatistics.totalSessions)} Claude Code sessions: ${integer.format(compactStatistics.sessionsWithCompacts)} compacted, ${integer.format(compactStatistics.totalCompacts)} compactions in all, at most ${integer.format(compactStatistics.maxCompactsPerSession)} in one session.`,
    );
  }
  const refused = options.strict === true && refuseMalformedLines(transcripts, io);
  reportSkippedSummary(collected, io);
  return failed || refused ? 1 : 0;
}
