import { InvalidFormatError, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { parseClaudeCodeSession } from './claude-code-session-reader.js';
import { convertClaudeCodeSession } from './convert-claude-code-session.js';
import {
  assistant,
  compactBoundary,
  compactSummary,
  result,
  text,
  toolUse,
  user,
  type FixtureRecord,
} from './test-support/records.js';

const conversation: FixtureRecord[] = [
  user('u1', null, 'Fix the failing test in parser.ts'),
  assistant('a1', 'u1', 'msg_1', toolUse('call_1')),
  result('r1', 'a1', 'call_1', 'export function parse() {}'),
  assistant('a2', 'r1', 'msg_2', text('The parser returns early.')),
  user('u2', 'a2', 'Then make it return the rest too'),
  assistant('a3', 'u2', 'msg_3', text('Done.')),
  user('u3', 'a3', 'Now run the tests'),
  assistant('a4', 'u3', 'msg_4', text('All green.')),
];

/** The file's lines, with the given 1-based lines cut short (as a crash mid-write leaves them). */
function damaged(records: readonly FixtureRecord[], lines: readonly number[], cut = (line: string) => line.slice(0, -12)) {
  return records.map((record, index) => (lines.includes(index + 1) ? cut(JSON.stringify(record)) : JSON.stringify(record))).join('\n');
}

const humanTexts = (history: readonly HistoryEntry[]) =>
  history.flatMap((entry) => (entry.speaker === 'human' ? entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])) : []));

describe('reconnectAcrossMalformedLines (through parseClaudeCodeSession)', () => {
  it('should keep the user prompts before three corrupt lines in the middle instead of cutting them off as an abandoned branch', () => {
    const session = parseClaudeCodeSession(damaged(conversation, [4, 5, 6]));
    const { conversation: converted } = convertClaudeCodeSession(session, { view: 'whole-session' });

    expect(humanTexts(converted.history)).toEqual(['Fix the failing test in parser.ts', 'Now run the tests']);
    expect(session.abandonedBranches).toEqual([]);
    expect(session.recordsByUuid.get('u3')).toMatchObject({ parentUuid: 'r1', reconnectedAcross: [4, 5, 6] });
  });

  it('should say for each malformed line what it held and which records were joined across it', () => {
    const session = parseClaudeCodeSession(damaged(conversation, [4, 5, 6]));
    const malformed = session.warnings.filter((warning) => warning.type === 'malformed');

    expect(malformed.map((warning) => warning.line)).toEqual([4, 5, 6]);
    expect(malformed[1]?.message).toMatch(/^line 5: not valid JSON .*a user message \("Then make it return the"\) was lost/);
    expect(malformed[1]?.message).toContain('the conversation was joined across it (the damaged lines 4, 5 and 6): line 7 now follows line 3');
    expect(session.malformedLines[2]).toMatchObject({
      line: 6,
      reconnected: [{ line: 7, uuid: 'u3', missingParentUuid: 'a3', acrossLines: [4, 5, 6], parentLine: 3, method: 'named-by-damaged-line' }],
    });
  });

  it('should fall back to file order when the damaged lines show no uuids: the last record before the damage', () => {
    const session = parseClaudeCodeSession(damaged(conversation, [4, 5, 6], (line) => line.slice(0, 30)));

    expect(session.malformedLines[2]?.reconnected).toMatchObject([{ line: 7, parentLine: 3, method: 'file-order' }]);
    expect(humanTexts(convertClaudeCodeSession(session, { view: 'whole-session' }).conversation.history)).toContain(
      'Fix the failing test in parser.ts',
    );
  });

  it('should follow the parent a damaged line still names rather than file order', () => {
    // The damaged line 5 still shows its uuid and parent (the cut is in the middle of its content): u2 hangs under
    // a1's result r1, not under the record written just before it (a side branch at line 4).
    const records = [
      user('u1', null, 'Start'),
      assistant('a1', 'u1', 'msg_1', toolUse('call_1')),
      result('r1', 'a1', 'call_1'),
      user('side', 'u1', 'an edited prompt the user abandoned'),
      user('u2', 'r1', 'Continue'),
      assistant('a2', 'u2', 'msg_2', text('Continuing.')),
    ];
    const input = damaged(records, [5], (line) => line.replace('"content":"Continue"', '"content":"Contin\u0000ue'));
    const session = parseClaudeCodeSession(input);

    expect(session.malformedLines[0]).toMatchObject({ uuid: 'u2', reconnected: [{ parentUuid: 'r1', method: 'named-by-damaged-line' }] });
    expect(session.mainPath).toEqual(['u1', 'a1', 'r1', 'a2']);
  });

  it('should join a subagent record to the last record of its own lane, not to the main conversation written between', () => {
    const records = [
      user('u1', null, 'Delegate the search'),
      user('s1', null, 'Search for TODOs', { isSidechain: true }),
      assistant('m1', 'u1', 'msg_1', text('Delegated.')),
      assistant('s2', 's1', 'msg_s', text('Found 3 TODOs'), { isSidechain: true }),
      user('s3', 's2', 'more', { isSidechain: true }),
    ];
    const session = parseClaudeCodeSession(damaged(records, [4]));

    expect(session.recordsByUuid.get('s3')).toMatchObject({ parentUuid: 's1', reconnectedAcross: [4] });
  });

  it('should not join across a compaction: the record after it stays a root and the warning says so', () => {
    const records = [
      user('u1', null, 'Old work'),
      assistant('a1', 'u1', 'msg_1', text('Done.')),
      compactBoundary('b1', 'a1'),
      compactSummary('s1', 'b1'),
      user('u2', 'lost', 'Continue after the compaction'),
    ];
    const lines = records.map((record) => JSON.stringify(record));
    lines.splice(2, 0, '{"parentUuid":"a1","type":"user","message":{"role":"user","content":"brok');
    const session = parseClaudeCodeSession(lines.join('\n'));

    expect(session.malformedLines[0]?.cutOff).toEqual([6]);
    expect(session.warnings.find((warning) => warning.type === 'malformed')?.message).toContain(
      'line 6 could not be joined (a compaction lies between)',
    );
  });

  it('should say that nothing depended on a malformed line no record names as parent', () => {
    const session = parseClaudeCodeSession(damaged(conversation, [8]));
    expect(session.warnings.find((warning) => warning.type === 'malformed')?.message).toMatch(
      /an assistant message \("All gr.*"\) was lost; no record named it as parent$/,
    );
  });

  it('should make every malformed line an error in strict mode, each with its line number and what it held', () => {
    const input = damaged(conversation, [2, 5]);
    let error: unknown;
    try {
      parseClaudeCodeSession(input, { strict: true });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidFormatError.isInstance(error)).toBe(true);
    expect((error as InvalidFormatError).issues.map((issue) => issue.path)).toEqual(['line 2', 'line 5']);
    expect((error as InvalidFormatError).issues[1]?.message).toContain('it held a user message');
    expect(() => parseClaudeCodeSession(JSON.stringify(conversation[0]), { strict: true })).not.toThrow();
  });
});
