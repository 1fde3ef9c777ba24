import type { HistoryEntry } from '@ctx/core';
import { isValidatedEntry, recordedWorkingDirectory } from '@ctx/strategy-utils';
import { responseFactsOf } from './tool-call-facts.js';

/** What one entry records of its working directory. */
interface RecordedDirectories {
  /** A Claude Code record's `cwd` (`recordedWorkingDirectory` from `@ctx/strategy-utils`), other than `/`. */
  readonly cwd: string | undefined;
  /** The `(Current directory: /path)` line of the first of its SWE-agent observations that has one. */
  readonly directory: string | undefined;
}

// Entries are frozen values: what one records is read once. A fold that starts over (after a compression rewrote
// the history) asks again about every entry it kept.
const recorded = new WeakMap<HistoryEntry, RecordedDirectories>();

function directoriesOf(entry: HistoryEntry): RecordedDirectories {
  const known = recorded.get(entry);
  if (known !== undefined) return known;
  const cwd = recordedWorkingDirectory(entry);
  let directory: string | undefined;
  if (entry.speaker === 'tool') {
    for (const block of entry.blocks) {
      if (block.type !== 'tool_response') continue;
      directory = responseFactsOf(block).status.directory;
      if (directory !== undefined) break;
    }
  }
  const directories = { cwd: cwd === '/' ? undefined : cwd, directory };
  if (isValidatedEntry(entry)) recorded.set(entry, directories);
  return directories;
}

/**
 * The working directory a history recorded: the `cwd` of a Claude Code session (`inferWorkspaceRoot` from
 * `@ctx/strategy-utils`), else the `(Current directory: /path)` line of the first SWE-agent observation that has one.
 *
 * @param history - The history.
 * @param start - The first entry read.
 * @param end - The entry after the last one read.
 * @returns The directory, or undefined when the entries read record none.
 */
export function recordedWorkspaceRoot(
  history: readonly HistoryEntry[],
  start = 0,
  end = history.length,
): string | undefined {
  let directory: string | undefined;
  for (let index = start; index < end; index++) {
    const directories = directoriesOf(history[index] as HistoryEntry);
    if (directories.cwd !== undefined) return directories.cwd;
    directory ??= directories.directory;
  }
  return directory;
}

/**
 * The directory relative tool paths resolve against (spec 000 BR-PRUNE-006): the configured one, or — when the
 * configuration says `/`, the orchestrator's default when none is set — the one the history recorded.
 *
 * @param configured - `DensityConfig.workspaceRoot`.
 * @param history - The history.
 * @returns An absolute directory.
 */
export function resolveWorkspaceRoot(configured: string, history: readonly HistoryEntry[]): string {
  return configured === '/' ? (recordedWorkspaceRoot(history) ?? '/') : configured;
}
