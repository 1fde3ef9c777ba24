import { InvalidFormatError } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClaudeCodeSessionReader, parseClaudeCodeSession } from './claude-code-session-reader.js';
import { assistant, jsonl, progress, text, user, type FixtureRecord } from './test-support/records.js';

const conversation = [
  user('u1', null, 'Fix the failing test'),
  assistant('a1', 'u1', 'msg_1', text('Looking at it.')),
  progress('p1', 'a1'),
  user('u2', 'p1', 'Thanks'),
];

describe('parseClaudeCodeSession', () => {
  it('should report a malformed line as a malformed warning with its 1-based line number and read every good line', () => {
    const lines = jsonl(conversation).split('\n');
    lines.splice(2, 0, '{"type":"assistant","uuid":"broken"');
    const session = parseClaudeCodeSession(lines.join('\n'));

    expect(session.records.map((record) => record.uuid)).toEqual(['u1', 'a1', 'p1', 'u2']);
    expect(session.records.map((record) => record.line)).toEqual([1, 2, 4, 5]);
    const malformed = session.warnings.filter((warning) => warning.type === 'malformed');
    expect(malformed).toHaveLength(1);
    expect(malformed[0]).toMatchObject({ type: 'malformed', line: 3 });
    expect(session.statistics.malformedLines).toBe(1);
  });

  it('should report JSON that is not a record (an array, an object without `type`) as malformed', () => {
    const session = parseClaudeCodeSession(`[1,2]\n{"uuid":"x"}\n${jsonl(conversation)}`);
    expect(session.warnings.filter((warning) => warning.type === 'malformed').map((warning) => warning.line)).toEqual([1, 2]);
    expect(session.records).toHaveLength(4);
  });

  it('should keep and count an unknown record type, report it once as unsupported, and never fail on it', () => {
    const unknown: FixtureRecord = { type: 'future-thing', uuid: 'f1', parentUuid: 'u1', payload: { a: 1 } };
    const session = parseClaudeCodeSession(jsonl([conversation[0] as FixtureRecord, unknown, unknown, ...conversation.slice(1)]));

    expect(session.statistics.unknownTypes).toEqual({ 'future-thing': 2 });
    expect(session.statistics.recordTypes['future-thing']).toBe(2);
    expect(session.records.filter((record) => record.type === 'future-thing')).toHaveLength(2);
    expect(session.warnings.filter((warning) => warning.type === 'unsupported')).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringContaining('future-thing') as string }),
    ]);
  });

  it('should count record types named like properties every object has as any other type', () => {
    const named = (type: string, uuid: string): FixtureRecord => ({ type, uuid, parentUuid: 'u1' });
    const session = parseClaudeCodeSession(
      jsonl([conversation[0] as FixtureRecord, named('constructor', 'c1'), named('constructor', 'c2'), named('__proto__', 'p1'), named('toString', 't1')]),
    );
    expect(Object.entries(session.statistics.unknownTypes)).toEqual([
      ['constructor', 2],
      ['__proto__', 1],
      ['toString', 1],
    ]);
    expect(session.warnings.filter((warning) => warning.type === 'unsupported').map((warning) => warning.line)).toEqual([2, 4, 5]);
  });

  it('should skip blank lines, Windows line breaks and a byte-order mark without warnings', () => {
    const session = parseClaudeCodeSession(`\uFEFF${jsonl(conversation).replaceAll('\n', '\r\n')}\r\n\r\n`);
    expect(session.records).toHaveLength(4);
    expect(session.warnings).toEqual([]);
  });

  it('should return an empty session for empty text', () => {
    const session = parseClaudeCodeSession('');
    expect(session.records).toEqual([]);
    expect(session.epochs).toHaveLength(1);
    expect(session.leafUuid).toBeUndefined();
  });

  it('should throw InvalidFormatError when no line is a Claude Code record', () => {
    const openAiChat = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }, null, 2);
    expect(() => parseClaudeCodeSession(openAiChat)).toThrowError(InvalidFormatError);
    try {
      parseClaudeCodeSession(openAiChat);
    } catch (error) {
      expect(InvalidFormatError.isInstance(error) && error.format).toBe('claude-code-jsonl');
    }
  });

  it('should count messages, tool calls, tool results, sidechain records and toolUseResult copies', () => {
    const session = parseClaudeCodeSession(
      jsonl([
        user('u1', null, 'go'),
        assistant('a1', 'u1', 'msg_1', { type: 'tool_use', id: 't1', name: 'Bash', input: {} }),
        user('r1', 'a1', [{ type: 'tool_result', tool_use_id: 't1', content: 'done' }], { toolUseResult: { stdout: 'done' } }),
        user('s1', null, 'subagent prompt', { isSidechain: true }),
      ]),
    );
    expect(session.statistics).toMatchObject({
      records: 4,
      messages: 4,
      toolCalls: 1,
      toolResults: 1,
      sidechainRecords: 1,
      toolUseResultRecords: 1,
      versions: ['2.1.39'],
      sessionIds: ['session-1'],
    });
  });
});

describe('createClaudeCodeSessionReader', () => {
  it('should read a file fed in chunks split anywhere exactly as the whole text', () => {
    const whole = jsonl(conversation);
    const expected = parseClaudeCodeSession(whole);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: whole.length - 1 }), { maxLength: 12 }), (cuts) => {
        const reader = createClaudeCodeSessionReader();
        let start = 0;
        for (const cut of [...cuts].sort((first, second) => first - second)) {
          reader.addText(whole.slice(start, cut));
          start = cut;
        }
        reader.addText(whole.slice(start));
        const session = reader.finish();
        expect(session.records).toEqual(expected.records);
        expect(session.mainPath).toEqual(expected.mainPath);
      }),
    );
  });

  it('should read lines given one by one, and a last line without a line break', () => {
    const reader = createClaudeCodeSessionReader();
    const [first, second, ...rest] = jsonl(conversation).trimEnd().split('\n');
    reader.addLine(first as string);
    reader.addLine(second as string);
    reader.addText(rest.join('\n'));
    expect(reader.finish().records.map((record) => record.uuid)).toEqual(['u1', 'a1', 'p1', 'u2']);
  });
});
