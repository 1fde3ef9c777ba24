import { corpusExists, readCorpusText } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { parseClaudeCodeSession } from './claude-code-session-reader.js';
import { formatClaudeCodeSessionSummary } from './format-claude-code-session-summary.js';
import { summarizeClaudeCodeSession } from './summarize-claude-code-session.js';
import {
  assistant,
  compactBoundary,
  compactSummary,
  jsonl,
  result,
  toolResult,
  toolUse,
  user,
} from './test-support/records.js';

const session = parseClaudeCodeSession(
  [
    jsonl([
      user('u1', null, 'Fix the build'),
      assistant('a1', 'u1', 'msg_1', toolUse('t1', 'Bash')),
      assistant('a2', 'a1', 'msg_1', toolUse('t2', 'Read')),
      user('r1', 'a2', [toolResult('t1', 'exit 1', { is_error: true })]),
      result('r2', 'a1', 't2'),
      compactBoundary('b1', 'r1', { trigger: 'auto', preTokens: 155_000 }),
      compactSummary('s1', 'b1'),
      assistant('a3', 's1', 'msg_2', toolUse('t3', 'Bash')),
      result('r3', 'a3', 't3'),
      user('u2', 'r3', '<local-command-stdout>ok</local-command-stdout>'),
    ]),
    'not json',
    JSON.stringify({ type: 'brand-new-type', uuid: 'n1' }),
  ].join('\n'),
);

describe('summarizeClaudeCodeSession', () => {
  it('should count entries by speaker, human text by kind and tool calls by name in the whole session', () => {
    const summary = summarizeClaudeCodeSession(session);
    expect(summary.view).toBe('whole-session');
    expect(summary.entries).toEqual({ total: 8, human: 3, ai: 2, tool: 3 });
    expect(summary.humanTextKinds).toEqual({ typed: 1, 'compaction-summary': 1, 'command-output': 1 });
    expect(summary.toolCalls).toEqual({ total: 3, errors: 1, byName: { Bash: 2, Read: 1 } });
  });

  it('should count tools named like properties every object has as any other tool', () => {
    const named = parseClaudeCodeSession(
      jsonl([
        user('u1', null, 'Go'),
        assistant('a1', 'u1', 'msg_1', toolUse('t1', 'constructor')),
        result('r1', 'a1', 't1'),
        assistant('a2', 'r1', 'msg_2', toolUse('t2', '__proto__')),
        result('r2', 'a2', 't2'),
        assistant('a3', 'r2', 'msg_3', toolUse('t3', 'constructor')),
        result('r3', 'a3', 't3'),
      ]),
    );
    expect(Object.entries(summarizeClaudeCodeSession(named).toolCalls.byName)).toEqual([
      ['constructor', 2],
      ['__proto__', 1],
    ]);
  });

  it('should list epochs, compactions with trigger and preTokens, malformed lines and record types', () => {
    const summary = summarizeClaudeCodeSession(session);
    expect(summary.epochs).toHaveLength(2);
    expect(summary.compactions).toEqual([expect.objectContaining({ trigger: 'auto', preTokens: 155_000, form: 'compact-boundary' })]);
    expect(summary.malformedLines).toEqual([12]); // line 11 is blank: jsonl() ends with a line break
    expect(summary.unknownTypes).toEqual({ 'brand-new-type': 1 });
    expect(summary.recordTypes).toMatchObject({ user: 6, assistant: 3, system: 1 });
    expect(summary.toolUseResultRecords).toBe(2);
    expect(summary.warnings).toMatchObject({ malformed: 1, unsupported: 1 });
  });

  it('should count only the last epoch in the last-epoch view', () => {
    expect(summarizeClaudeCodeSession(session, { view: 'last-epoch' }).entries).toEqual({ total: 4, human: 2, ai: 1, tool: 1 });
  });
});

describe('formatClaudeCodeSessionSummary', () => {
  it('should render one fact per line for a terminal', () => {
    const text = formatClaudeCodeSessionSummary(summarizeClaudeCodeSession(session));
    expect(text).toContain('entries: 8 (human 3, ai 2, tool 3)');
    expect(text).toContain('tool calls: 3 (1 errors): Bash 2, Read 1');
    expect(text).toContain('#1 compact-boundary at line 6, trigger auto, 155,000 tokens before');
    expect(text).toContain('malformed lines: 12');
    expect(text).toContain('unknown record types: brand-new-type 1');
  });

  it.skipIf(!corpusExists)('should summarize a real session with sidechains', () => {
    const real = parseClaudeCodeSession(readCorpusText('claude-code/vsla/0a725fb5-6378-432a-9e84-9f3f49d4043d.jsonl'));
    const text = formatClaudeCodeSessionSummary(summarizeClaudeCodeSession(real));
    expect(text).toMatch(/sidechains: 1\n {2}eb46ebab-[^\n]+started by toolu_015gA7vJ4Yf3MwmHnvbS5ArK/);
    expect(text).toContain('#1 legacy-summary at line 451');
  });
});
