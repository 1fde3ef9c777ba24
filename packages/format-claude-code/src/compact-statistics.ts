import type { ClaudeCodeSession } from './claude-code-session.js';

/** Compaction counts across many sessions (spec 001 `analyze_compacts`). */
export interface CompactStatistics {
  readonly totalSessions: number;
  readonly sessionsWithCompacts: number;
  readonly totalCompacts: number;
  readonly maxCompactsPerSession: number;
}

/**
 * Counts compactions across sessions: how many sessions there are, how many compacted at least once, how many
 * compactions happened in all, and the most in one session. Every compaction form counts (modern boundary, legacy
 * summary, spec 001 `compact_system`).
 *
 * @param sessions - Parsed sessions (main session files; subagent files have no compactions of their own).
 * @returns The statistics.
 * @example
 * ```ts
 * const stats = analyzeCompacts(files.map((text) => parseClaudeCodeSession(text)));
 * console.log(`${stats.sessionsWithCompacts}/${stats.totalSessions} sessions compacted`);
 * ```
 */
export function analyzeCompacts(sessions: Iterable<ClaudeCodeSession>): CompactStatistics {
  let totalSessions = 0;
  let sessionsWithCompacts = 0;
  let totalCompacts = 0;
  let maxCompactsPerSession = 0;
  for (const session of sessions) {
    const compacts = session.compactions.length;
    totalSessions += 1;
    if (compacts > 0) sessionsWithCompacts += 1;
    totalCompacts += compacts;
    maxCompactsPerSession = Math.max(maxCompactsPerSession, compacts);
  }
  return { totalSessions, sessionsWithCompacts, totalCompacts, maxCompactsPerSession };
}
