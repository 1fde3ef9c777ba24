import type { HistoryEntry } from '@ctx/core';
import { inferWorkspaceRoot } from '@ctx/strategy-utils';
import { responseFactsOf } from './tool-call-facts.js';

/**
 * The working directory a history recorded: the `cwd` of a Claude Code session (`inferWorkspaceRoot` from
 * `@ctx/strategy-utils`), else the `(Current directory: /path)` line of the first SWE-agent observation that has one.
 *
 * @param history - The history.
 * @returns The directory, or undefined when the history records none.
 */
export function recordedWorkspaceRoot(history: readonly HistoryEntry[]): string | undefined {
  const claudeCode = inferWorkspaceRoot(history);
  if (claudeCode !== '/') return claudeCode;
  for (const entry of history) {
    if (entry.speaker !== 'tool') continue;
    for (const block of entry.blocks) {
      if (block.type !== 'tool_response') continue;
      const directory = responseFactsOf(block).status.directory;
      if (directory !== undefined) return directory;
    }
  }
  return undefined;
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
