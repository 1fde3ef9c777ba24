import type { HistoryEntry } from '@ctx/core';

/**
 * The working directory Claude Code recorded on one entry (`providerMetadata.claudeCode.cwd`), when it is absolute.
 *
 * @param entry - Any entry.
 * @returns The directory, or undefined when the entry records none (or a relative one).
 * @example
 * ```ts
 * recordedWorkingDirectory(entry); // '/home/dev/app' for an entry read from a Claude Code session there
 * ```
 */
export function recordedWorkingDirectory(entry: HistoryEntry): string | undefined {
  const cwd = entry.metadata?.providerMetadata?.claudeCode?.cwd;
  return typeof cwd === 'string' && cwd.startsWith('/') ? cwd : undefined;
}

/**
 * The directory relative tool paths resolve against when the caller gives none: the working directory Claude Code
 * recorded on the first entry that has one ({@link recordedWorkingDirectory}), else `/`. Only relative paths
 * depend on it; it decides whether `src/a.ts` and `/repo/src/a.ts` are one file.
 *
 * @param history - The history the paths come from.
 * @returns An absolute directory.
 * @example
 * ```ts
 * classifyHistoryToolCalls(history, { workspaceRoot: inferWorkspaceRoot(history) });
 * ```
 */
export function inferWorkspaceRoot(history: readonly HistoryEntry[]): string {
  for (const entry of history) {
    const cwd = recordedWorkingDirectory(entry);
    if (cwd !== undefined) return cwd;
  }
  return '/';
}
