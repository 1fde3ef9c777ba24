import { describe, expect, it } from 'vitest';
import { parseClaudeCodeSession } from './claude-code-session-reader.js';
import { jsonl, user, type FixtureRecord } from './test-support/records.js';
import { classifyUserText, type ClaudeCodeUserTextKind } from './user-text-kind.js';

const classify = (record: FixtureRecord) => classifyUserText(parseClaudeCodeSession(jsonl([record])).records[0]!);

describe('classifyUserText', () => {
  it.each<[string, FixtureRecord, ClaudeCodeUserTextKind]>([
    ['a typed prompt', user('u', null, 'mix phx.server doesnt seem to start'), 'typed'],
    ['a typed prompt in a text block', user('u', null, [{ type: 'text', text: 'hello' }]), 'typed'],
    ['an isMeta expansion', user('u', null, 'Split complex tasks…', { isMeta: true }), 'meta'],
    ['a slash command', user('u', null, '<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>'), 'command'],
    ['command output', user('u', null, '<local-command-stdout>Kept model</local-command-stdout>'), 'command-output'],
    ['a caveat', user('u', null, '<local-command-caveat>Caveat: …</local-command-caveat>', { isMeta: true }), 'meta'],
    ['a system reminder', user('u', null, '<system-reminder>\nPostToolUse hook context</system-reminder>', { isMeta: true }), 'system-reminder'],
    ['a task notification', user('u', null, '<task-notification>\n<task-id>b0be39e</task-id>'), 'task-notification'],
    ['an interruption', user('u', null, [{ type: 'text', text: '[Request interrupted by user for tool use]' }]), 'interruption'],
    ['a compaction summary', user('u', null, 'This session is being continued…', { isCompactSummary: true }), 'compaction-summary'],
  ])('should classify %s', (_, record, kind) => {
    expect(classify(record)).toBe(kind);
  });
});
