import { formatCount } from '@ctx/core';
import type { ClaudeCodeSessionSummary } from './summarize-claude-code-session.js';

function formatCounts(counts: Readonly<Record<string, number>>): string {
  const parts = Object.entries(counts)
    .sort(([firstKey, first], [secondKey, second]) => second - first || firstKey.localeCompare(secondKey))
    .map(([key, count]) => `${key} ${formatCount(count)}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

/**
 * Renders a session summary as lines of plain text for a terminal.
 *
 * @param summary - From `summarizeClaudeCodeSession`.
 * @returns The text, one fact per line.
 * @example
 * ```ts
 * process.stdout.write(`${formatClaudeCodeSessionSummary(summary)}\n`);
 * ```
 */
export function formatClaudeCodeSessionSummary(summary: ClaudeCodeSessionSummary): string {
  const lines = [
    `Claude Code ${summary.kind}${summary.sessionId === undefined ? '' : ` ${summary.sessionId}`}${summary.agentId === undefined ? '' : ` (agent ${summary.agentId})`}, view ${summary.view}`,
    `entries: ${formatCount(summary.entries.total)} (human ${summary.entries.human}, ai ${summary.entries.ai}, tool ${summary.entries.tool})`,
    `human text: ${formatCounts(summary.humanTextKinds)}`,
    `tool calls: ${formatCount(summary.toolCalls.total)} (${summary.toolCalls.errors} errors): ${formatCounts(summary.toolCalls.byName)}`,
    `epochs: ${summary.epochs.length}`,
  ];
  for (const epoch of summary.epochs) {
    lines.push(
      `  epoch ${epoch.number}: lines ${epoch.firstLine ?? '-'}–${epoch.lastLine ?? '-'}, ${formatCount(epoch.messageCount)} messages, ${epoch.rootCount} roots, ${epoch.orphanCount} orphans`,
    );
  }
  lines.push(`compactions: ${summary.compactions.length}`);
  for (const compaction of summary.compactions) {
    const preTokens = compaction.preTokens === undefined ? '' : `, ${formatCount(compaction.preTokens)} tokens before`;
    const parent = compaction.logicalParentFound === false ? ', logical parent not in file' : '';
    lines.push(`  #${compaction.number} ${compaction.form} at line ${compaction.line}, trigger ${compaction.trigger ?? 'unknown'}${preTokens}${parent}`);
  }
  lines.push(`orphans: ${summary.orphans.length}`);
  for (const orphan of summary.orphans) lines.push(`  line ${orphan.line}: ${orphan.type} ${orphan.uuid} (${orphan.reason})`);
  lines.push(`sidechains: ${summary.sidechains.length}`);
  for (const sidechain of summary.sidechains) {
    const task = sidechain.taskCallId === undefined ? '' : `, started by ${sidechain.taskCallId}`;
    lines.push(`  ${sidechain.id}: lines ${sidechain.firstLine}–${sidechain.lastLine}, ${sidechain.messageCount} messages${task}`);
  }
  lines.push(`abandoned branches: ${summary.abandonedBranches.length}`);
  for (const branch of summary.abandonedBranches) {
    lines.push(`  from line ${branch.rootLine}: ${branch.messageCount} messages${branch.forkUuid === undefined ? ', no fork point' : `, forks from ${branch.forkUuid}`}`);
  }
  lines.push(
    `record types: ${formatCounts(summary.recordTypes)}`,
    `unknown record types: ${formatCounts(summary.unknownTypes)}`,
    `malformed lines: ${summary.malformedLines.length === 0 ? 'none' : summary.malformedLines.join(', ')}`,
    `records with toolUseResult (not copied): ${formatCount(summary.toolUseResultRecords)}`,
    `warnings: ${formatCounts(summary.warnings)}`,
  );
  return lines.join('\n');
}
