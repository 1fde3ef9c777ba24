// Real sessions with damaged lines: three consecutive lines of the conversation cut short (as a crash mid-write leaves
// them) at a quarter, half and three quarters of each recorded Claude Code session. Every prompt the user typed on
// an undamaged line must still be in the converted conversation, and the history must stay pair-valid.
import { findToolPairingProblems, type HistoryEntry } from '@ctx/core';
import { readCorpusText } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { isMessageRecord } from './claude-code-record.js';
import { parseClaudeCodeSession } from './claude-code-session-reader.js';
import { convertClaudeCodeSession } from './convert-claude-code-session.js';
import { claudeCodeManifest } from './test-support/claude-code-manifest.js';

const mainSessions = claudeCodeManifest().filter((entry) => !entry.file.includes('/subagents/'));

/** Uuids of the entries of prompts the user typed. */
function typedPrompts(history: readonly HistoryEntry[]): string[] {
  return history.flatMap((entry) => {
    const claudeCode = entry.metadata?.providerMetadata?.claudeCode as { isUserTyped?: boolean } | undefined;
    return entry.speaker === 'human' && claudeCode?.isUserTyped === true && entry.metadata?.id !== undefined ? [entry.metadata.id] : [];
  });
}

describe.skipIf(mainSessions.length === 0)('reading recorded sessions with three damaged lines', () => {
  describe.each(mainSessions)('$file', ({ file }) => {
    const original = readCorpusText(file);
    const session = parseClaudeCodeSession(original);
    const lines = original.split('\n');
    const pathLines = session.mainPath.map((uuid) => session.recordsByUuid.get(uuid)).flatMap((record) => (record !== undefined && isMessageRecord(record) ? [record.line] : []));

    it.each([0.25, 0.5, 0.75])('should keep every typed prompt on an undamaged line when the lines at %s of the conversation break', (fraction) => {
      const first = pathLines[Math.floor(pathLines.length * fraction)] as number;
      const damaged = new Set([first, first + 1, first + 2]);
      const text = lines.map((line, index) => (damaged.has(index + 1) ? line.slice(0, Math.floor(line.length / 2)) : line)).join('\n');

      const before = typedPrompts(convertClaudeCodeSession(session, { view: 'whole-session' }).conversation.history);
      const damagedSession = parseClaudeCodeSession(text);
      const { conversation, warnings } = convertClaudeCodeSession(damagedSession, { view: 'whole-session' });
      const lineOf = (uuid: string) => session.recordsByUuid.get(uuid)?.line ?? 0;

      expect(typedPrompts(conversation.history)).toEqual(before.filter((uuid) => !damaged.has(lineOf(uuid))));
      expect(findToolPairingProblems(conversation.history)).toEqual([]);
      expect(warnings.filter((warning) => warning.type === 'malformed').map((warning) => warning.line)).toEqual([...damaged].filter((line) => lines[line - 1] !== ''));
    });
  });
});
