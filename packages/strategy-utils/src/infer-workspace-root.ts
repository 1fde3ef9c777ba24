import type { HistoryEntry } from '@ctx/core';

/**
 * The directory relative tool paths resolve against when the caller gives none: the working directory Claude Code
 * recorded on the first entry that has one (`providerMetadata.claudeCode.cwd`), else `/`. Only relative paths
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
    const cwd = entry.metadata?.providerMetadata?.claudeCode?.cwd;
    if (typeof cwd === 'string' && cwd.startsWith('/')) return cwd;
  }
  return '/';
}
