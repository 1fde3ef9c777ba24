import type { CliIo } from './cli-io.js';
import type { CollectedTranscripts } from './collect-transcripts.js';
import { escapeForTerminal } from './terminal-text.js';

/** Prints one line on stderr per skipped file: `ctx: skipped <file>: <reason>`, escaped so no raw bytes get through. */
export function reportSkippedTranscripts(collected: CollectedTranscripts, io: CliIo): void {
  for (const { file, reason } of collected.skipped) io.stderr(escapeForTerminal(`ctx: skipped ${file}: ${reason}`));
}

/**
 * Prints the closing line of a run that skipped files (nothing when none were), so the exit code 1 has its reason
 * at the end of the output too.
 */
export function reportSkippedSummary(collected: CollectedTranscripts, io: CliIo): void {
  const { skipped, fileCount } = collected;
  if (skipped.length === 0) return;
  io.stderr(`ctx: ${skipped.length} of ${fileCount} ${fileCount === 1 ? 'file' : 'files'} could not be read; see above`);
}
