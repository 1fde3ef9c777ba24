import { analyzeCompacts } from '@ctx/format-claude-code';
import { CliError, type CliIo } from '../cli-io.js';
import { describeEmptyConversation } from '../empty-conversation.js';
import { inspectTranscript, type TranscriptInspection } from '../inspect-transcript.js';
import { collectTranscripts } from '../collect-transcripts.js';
import { reportSkippedSummary, reportSkippedTranscripts } from '../report-skipped-transcripts.js';
import { createTokenizer, type TokenizerName } from '../tokenizers.js';

const integer = new Intl.NumberFormat('en-US');

function describeCounts(counts: Readonly<Partial<Record<string, number>>>): string {
  const parts = Object.entries(counts)
    .filter((entry): entry is [string, number] => (entry[1] ?? 0) > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([key, value]) => `${key} ${value}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

function formatInspection(inspection: TranscriptInspection & { readonly problem?: string }): string {
  const compactions =
    inspection.compactions === 0
      ? '0'
      : `${inspection.compactions} (${inspection.compactionDetails
          .map((detail) => `${detail.trigger ?? detail.form}${detail.preTokens === undefined ? '' : `, ${integer.format(detail.preTokens)} tokens before`}`)
          .join('; ')})`;
  return [
    `${inspection.file} — ${inspection.format}`,
    `  entries ${inspection.entries} (human ${inspection.bySpeaker.human}, ai ${inspection.bySpeaker.ai}, tool ${inspection.bySpeaker.tool}) · ${integer.format(inspection.tokens)} tokens (${inspection.tokenizer})`,
    `  tool calls ${inspection.toolCalls} (${describeCounts(inspection.toolCallsByKind)}) · ${inspection.toolErrors} error results`,
    `  epochs ${inspection.epochs} · compactions ${compactions} · orphans ${inspection.orphans} · sidechains ${inspection.sidechains} · abandoned branches ${inspection.abandonedBranches} · malformed lines ${inspection.malformedLines}`,
    `  files: ${inspection.filesRead} read, ${inspection.filesWritten} written, ${inspection.filesReread} read more than once${inspection.filesReread === 0 ? '' : ` (up to ${inspection.maxReadsOfOneFile} reads of one file)`}`,
    ...(Object.keys(inspection.warnings).length === 0 ? [] : [`  warnings: ${describeCounts(inspection.warnings)}`]),
    ...(inspection.problem === undefined ? [] : [`  warning: ${inspection.problem}`]),
  ].join('\n');
}

/** `ctx inspect <file|dir…>`: what a transcript contains, per file; compaction statistics across Claude Code sessions. */
export async function runInspectCommand(
  paths: readonly string[],
  options: { readonly json: boolean; readonly tokenizer: TokenizerName },
  io: CliIo,
): Promise<number> {
  if (paths.length === 0) throw new CliError('inspect expects at least one transcript file or directory');
  const tokenizer = await createTokenizer(options.tokenizer);
  const collected = await collectTranscripts(paths);
  const { transcripts } = collected;
  reportSkippedTranscripts(collected, io);
  // An empty conversation is still described (what was read, how many malformed lines), but flagged: exit 1.
  const inspections = transcripts.map((transcript) => {
    const empty = describeEmptyConversation(transcript);
    return {
      ...inspectTranscript(transcript, tokenizer),
      ...(empty === undefined ? {} : { problem: `no entries — nothing to compress or send (${empty})` }),
    };
  });
  const exitCode = collected.skipped.length > 0 || inspections.some((inspection) => inspection.problem !== undefined) ? 1 : 0;
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
    reportSkippedSummary(collected, io);
    return exitCode;
  }
  if (inspections.length > 0) io.stdout(inspections.map(formatInspection).join('\n\n'));
  if (compactStatistics !== undefined && sessions.length > 1) {
    io.stdout(
      `\nCompactions across ${compactStatistics.totalSessions} Claude Code sessions: ${compactStatistics.sessionsWithCompacts} compacted, ${compactStatistics.totalCompacts} compactions in all, at most ${compactStatistics.maxCompactsPerSession} in one session.`,
    );
  }
  reportSkippedSummary(collected, io);
  return exitCode;
}
