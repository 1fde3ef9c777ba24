import { analyzeCompacts } from '@ctx/format-claude-code';
import { CliError, type CliIo } from '../cli-io.js';
import { inspectTranscript, type TranscriptInspection } from '../inspect-transcript.js';
import { readTranscripts } from '../read-transcripts.js';
import { createTokenizer, type TokenizerName } from '../tokenizers.js';

const integer = new Intl.NumberFormat('en-US');

function describeCounts(counts: Readonly<Partial<Record<string, number>>>): string {
  const parts = Object.entries(counts)
    .filter((entry): entry is [string, number] => (entry[1] ?? 0) > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([key, value]) => `${key} ${value}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

function formatInspection(inspection: TranscriptInspection): string {
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
  const transcripts = await readTranscripts(paths);
  const inspections = transcripts.map((transcript) => inspectTranscript(transcript, tokenizer));
  const sessions = transcripts.flatMap((transcript) =>
    transcript.claudeCode === undefined || transcript.claudeCode.kind !== 'session' ? [] : [transcript.claudeCode],
  );
  const compactStatistics = sessions.length === 0 ? undefined : analyzeCompacts(sessions);
  if (options.json) {
    io.stdout(JSON.stringify({ files: inspections, ...(compactStatistics === undefined ? {} : { compactStatistics }) }, null, 2));
    return 0;
  }
  io.stdout(inspections.map(formatInspection).join('\n\n'));
  if (compactStatistics !== undefined && sessions.length > 1) {
    io.stdout(
      `\nCompactions across ${compactStatistics.totalSessions} Claude Code sessions: ${compactStatistics.sessionsWithCompacts} compacted, ${compactStatistics.totalCompacts} compactions in all, at most ${compactStatistics.maxCompactsPerSession} in one session.`,
    );
  }
  return 0;
}
