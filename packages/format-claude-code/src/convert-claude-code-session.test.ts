import {
  findToolPairingProblems,
  getEntryGenerator,
  parseConversation,
  type HistoryEntry,
  type JsonValue,
} from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { parseClaudeCodeSession } from './claude-code-session-reader.js';
import { convertClaudeCodeSession } from './convert-claude-code-session.js';
import {
  assistant,
  compactBoundary,
  compactSummary,
  jsonl,
  progress,
  result,
  text,
  toolResult,
  toolUse,
  user,
  type FixtureRecord,
} from './test-support/records.js';
import { UnknownClaudeCodeRecordError } from './unknown-claude-code-record-error.js';

const convert = (records: readonly FixtureRecord[], options?: Parameters<typeof convertClaudeCodeSession>[1]) =>
  convertClaudeCodeSession(parseClaudeCodeSession(jsonl(records)), options);

/** A compact picture of a history: speaker and block kinds, e.g. `ai:text,tool_call(t1)`. */
const shape = (history: readonly HistoryEntry[]) =>
  history.map(
    (entry) =>
      `${entry.speaker}:${entry.blocks
        .map((block) =>
          block.type === 'tool_call' ? `call(${block.id})` : block.type === 'tool_response' ? `result(${block.callId})` : block.type,
        )
        .join(',')}`,
  );

const claudeCode = (entry: HistoryEntry | undefined) => entry?.metadata?.providerMetadata?.claudeCode ?? {};

describe('convertClaudeCodeSession', () => {
  it('should merge the assistant records of one API response (same message.id) into one ai entry', () => {
    const { conversation } = convert([
      user('u1', null, 'Why does the server not start?'),
      assistant('a1', 'u1', 'msg_1', { type: 'thinking', thinking: 'Check mix.exs.', signature: 'REDACTED' }),
      assistant('a2', 'a1', 'msg_1', text('Let me look.')),
      assistant('a3', 'a2', 'msg_1', toolUse('t1')),
      result('r1', 'a3', 't1'),
    ]);

    expect(shape(conversation.history)).toEqual(['human:text', 'ai:thinking,text,call(t1)', 'tool:result(t1)']);
    const ai = conversation.history[1];
    expect(ai?.metadata).toMatchObject({ id: 'msg_1', model: 'claude-opus-4-6', usage: { inputTokens: 3, outputTokens: 5 } });
    expect(claudeCode(ai)).toMatchObject({ uuid: 'a1', recordUuids: ['a1', 'a2', 'a3'], requestId: 'req-msg_1' });
    expect(ai?.blocks[0]).toMatchObject({ type: 'thinking', thought: 'Check mix.exs.', signature: 'REDACTED' });
  });

  it('should pair parallel tool results stored on sibling branches of the parentUuid tree', () => {
    // Claude Code chains the calls (a1 → a2) and hangs each result under its own call: r1 is a sibling branch.
    const { conversation } = convert([
      user('u1', null, 'Search twice'),
      assistant('a1', 'u1', 'msg_1', toolUse('t1', 'WebSearch')),
      assistant('a2', 'a1', 'msg_1', toolUse('t2', 'Glob')),
      progress('p1', 'a2'),
      result('r2', 'a2', 't2'),
      result('r1', 'a1', 't1'),
      assistant('a3', 'r2', 'msg_2', text('Both done.')),
    ]);

    expect(shape(conversation.history)).toEqual([
      'human:text',
      'ai:call(t1),call(t2)',
      'tool:result(t2)',
      'tool:result(t1)',
      'ai:text',
    ]);
    expect(findToolPairingProblems(conversation.history)).toEqual([]);
    expect(conversation.providerMetadata?.claudeCode?.attachedRecords).toBe(1);
  });

  it('should keep a call and its result paired when the result was written before the rest of the response', () => {
    // A tool runs while the response still streams: result r1 lands between two records of msg_1.
    const { conversation } = convert([
      user('u1', null, 'Read then fetch'),
      assistant('a1', 'u1', 'msg_1', toolUse('t1', 'Read')),
      result('r1', 'a1', 't1'),
      assistant('a2', 'r1', 'msg_1', toolUse('t2', 'WebFetch')),
      result('r2', 'a2', 't2'),
    ]);
    expect(shape(conversation.history)).toEqual(['human:text', 'ai:call(t1),call(t2)', 'tool:result(t1)', 'tool:result(t2)']);
  });

  it('should follow the branch that leads to the last record after a rewind, and keep the abandoned branch apart', () => {
    const records = [
      user('u1', null, 'Write a parser'),
      assistant('a1', 'u1', 'msg_1', text('Here is a regex parser.')),
      user('u2', 'a1', 'Use a real grammar instead'),
      assistant('a2', 'u2', 'msg_2', text('Switching to a grammar.')),
      // The user rewinds to u2 and edits it: a second child of a1.
      user('u2b', 'a1', 'Use a hand-written recursive descent parser'),
      assistant('a2b', 'u2b', 'msg_3', text('Writing recursive descent.')),
    ];
    const session = parseClaudeCodeSession(jsonl(records));
    const { conversation } = convertClaudeCodeSession(session);

    expect(conversation.history.map((entry) => entry.metadata?.id)).toEqual(['u1', 'msg_1', 'u2b', 'msg_3']);
    expect(session.abandonedBranches).toEqual([
      { rootUuid: 'u2', rootLine: 3, forkUuid: 'a1', leafUuid: 'a2', recordCount: 2, messageCount: 2 },
    ]);
    const abandoned = convertClaudeCodeSession(session, { leafUuid: 'a2' }).conversation;
    expect(abandoned.history.map((entry) => entry.metadata?.id)).toEqual(['u1', 'msg_1', 'u2', 'msg_2']);
  });

  it('should keep an inline sidechain out of the main conversation and convert it on request', () => {
    const sidechain = { isSidechain: true };
    const records = [
      user('u1', null, 'Explore the repo'),
      assistant('a1', 'u1', 'msg_1', toolUse('task1', 'Task', { prompt: 'List the modules', description: 'explore' })),
      user('s1', null, 'List the modules', sidechain),
      assistant('s2', 's1', 'msg_s1', toolUse('ts1', 'Glob'), sidechain),
      user('s3', 's2', [toolResult('ts1', 'a.ts\nb.ts')], sidechain),
      assistant('s4', 's3', 'msg_s2', text('Two modules.'), sidechain),
      result('r1', 'a1', 'task1', 'Two modules.'),
    ];
    const session = parseClaudeCodeSession(jsonl(records));
    const main = convertClaudeCodeSession(session).conversation;

    expect(shape(main.history)).toEqual(['human:text', 'ai:call(task1)', 'tool:result(task1)']);
    expect(session.sidechains).toEqual([
      { id: 's1', rootUuid: 's1', firstLine: 3, lastLine: 6, recordCount: 4, messageCount: 4, leafUuid: 's4', taskCallId: 'task1' },
    ]);
    const side = convertClaudeCodeSession(session, { leafUuid: session.sidechains[0]?.leafUuid }).conversation;
    expect(shape(side.history)).toEqual(['human:text', 'ai:call(ts1)', 'tool:result(ts1)', 'ai:text']);
    expect(claudeCode(side.history[0])).toMatchObject({ isSidechain: true });
  });

  it('should drop a call that has no result anywhere, with a lossy warning, so the history stays provider-valid', () => {
    const { conversation, warnings } = convert([
      user('u1', null, 'Run the tests'),
      assistant('a1', 'u1', 'msg_1', text('Running them.')),
      assistant('a2', 'a1', 'msg_1', toolUse('t1', 'Bash')),
    ]);
    expect(shape(conversation.history)).toEqual(['human:text', 'ai:text']);
    expect(warnings).toContainEqual(expect.objectContaining({ type: 'lossy', line: 3, message: expect.stringContaining('t1') as string }));
    expect(conversation.providerMetadata?.claudeCode?.droppedToolCalls).toBe(1);
  });

  it('should drop a tool result that answers no call on the path, with a lossy warning', () => {
    const { conversation, warnings } = convert([
      user('u1', null, 'Hello'),
      user('r1', 'u1', [toolResult('ghost', 'output')]),
      assistant('a1', 'r1', 'msg_1', text('Hi.')),
    ]);
    expect(shape(conversation.history)).toEqual(['human:text', 'ai:text']);
    expect(warnings).toContainEqual(expect.objectContaining({ type: 'lossy', line: 2 }));
  });

  it('should map tool results: is_error to isError, nested content arrays kept as JSON, the tool name from the call', () => {
    const nested: JsonValue = [
      { type: 'text', text: 'partial' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
    ];
    const { conversation } = convert([
      user('u1', null, 'Go'),
      assistant('a1', 'u1', 'msg_1', toolUse('t1', 'Bash')),
      assistant('a2', 'a1', 'msg_1', toolUse('t2', 'Task')),
      user('r1', 'a2', [toolResult('t1', 'denied', { is_error: true }), toolResult('t2', nested)]),
    ]);
    expect(conversation.history[2]?.blocks).toEqual([
      { type: 'tool_response', callId: 't1', toolName: 'Bash', result: 'denied', isError: true },
      { type: 'tool_response', callId: 't2', toolName: 'Task', result: nested },
    ]);
  });

  it('should not copy toolUseResult, and flag that the record had one', () => {
    const { conversation } = convert([
      user('u1', null, 'Go'),
      assistant('a1', 'u1', 'msg_1', toolUse('t1', 'Bash')),
      result('r1', 'a1', 't1', 'the output'),
    ]);
    const tool = conversation.history[2];
    expect(claudeCode(tool)).toMatchObject({ hasToolUseResult: true, sourceToolAssistantUUID: 'a1', line: 3 });
    expect(JSON.stringify(conversation)).not.toContain('"toolUseResult"');
  });

  it('should convert images in user messages to media blocks', () => {
    const { conversation } = convert([
      user('u1', null, [text('What is this?'), { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } }]),
    ]);
    expect(conversation.history[0]?.blocks).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'media', mediaType: 'image/png', data: 'iVBOR' },
    ]);
  });

  it('should mark isMeta messages and command wrappers so they are not taken for user-typed text', () => {
    const { conversation } = convert([
      user('u1', null, 'Deploy it'),
      user('u2', 'u1', '<local-command-caveat>Caveat: generated by local commands</local-command-caveat>', { isMeta: true }),
      user('u3', 'u2', '<command-name>/mcp</command-name>\n<command-args></command-args>'),
      user('u4', 'u3', '<local-command-stdout>Reconnected.</local-command-stdout>'),
      user('u5', 'u4', 'Expanded skill instructions', { isMeta: true }),
    ]);
    expect(conversation.history.map((entry) => [claudeCode(entry).textKind, claudeCode(entry).isUserTyped])).toEqual([
      ['typed', true],
      ['meta', false],
      ['command', false],
      ['command-output', false],
      ['meta', false],
    ]);
    expect(claudeCode(conversation.history[1])).toMatchObject({ isMeta: true });
  });

  it('should keep a record field named __proto__ among the entry\'s Claude Code fields, as JSON holds it', () => {
    // The line is JSON: `__proto__` is an ordinary field there, which copying by assignment would make a prototype.
    const extra = JSON.parse('{"__proto__":{"source":"hook"}}') as FixtureRecord;
    const fields = claudeCode(convert([user('u1', null, 'Hi', extra)]).conversation.history[0]);

    expect(Object.hasOwn(fields, '__proto__')).toBe(true);
    expect(JSON.stringify(fields)).toContain('"__proto__":{"source":"hook"}');
  });

  it('should keep unknown content blocks verbatim in the conversation metadata and warn unsupported', () => {
    const serverTool = { type: 'server_tool_use', id: 'srv1', name: 'web_search', input: { query: 'x' } };
    const { conversation, warnings } = convert([user('u1', null, 'Search'), assistant('a1', 'u1', 'msg_1', serverTool), assistant('a2', 'a1', 'msg_1', text('Found.'))]);
    expect(shape(conversation.history)).toEqual(['human:text', 'ai:text']);
    expect(warnings).toContainEqual(expect.objectContaining({ type: 'unsupported', line: 2, path: 'message.content[0]' }));
    expect(conversation.providerMetadata?.claudeCode?.unsupportedBlocks).toEqual([
      { path: 'message.content[0]', block: serverTool, line: 2, uuid: 'a1' },
    ]);
  });

  it('should start the last-epoch view with the compaction summary, marked as generated', () => {
    const records = [
      user('u1', null, 'Build the feature'),
      assistant('a1', 'u1', 'msg_1', text('Done with part one.')),
      compactBoundary('b1', 'a1', { trigger: 'manual', preTokens: 42_000 }),
      compactSummary('s1', 'b1'),
      assistant('a2', 's1', 'msg_2', text('Continuing with part two.')),
    ];
    const last = convert(records).conversation;
    expect(last.history.map((entry) => entry.metadata?.id)).toEqual(['s1', 'msg_2']);
    const summary = last.history[0] as HistoryEntry;
    expect(getEntryGenerator(summary)).toBe('claude-code-compaction');
    expect(claudeCode(summary)).toMatchObject({
      textKind: 'compaction-summary',
      isUserTyped: false,
      compactBoundary: { number: 1, form: 'compact-boundary', uuid: 'b1', trigger: 'manual', preTokens: 42_000, logicalParentUuid: 'a1' },
    });

    const whole = convert(records, { view: 'whole-session' }).conversation;
    expect(whole.history.map((entry) => entry.metadata?.id)).toEqual(['u1', 'msg_1', 's1', 'msg_2']);
    expect(whole.providerMetadata?.claudeCode).toMatchObject({ view: 'whole-session', includedEpochs: [1, 2], epochCount: 2 });
  });

  it('should produce a conversation that core validates, without mutating the session', () => {
    const session = parseClaudeCodeSession(
      jsonl([user('u1', null, 'Go'), assistant('a1', 'u1', 'msg_1', toolUse('t1')), result('r1', 'a1', 't1')]),
    );
    const before = JSON.stringify(session.records);
    const decoded = convertClaudeCodeSession(session, { view: 'whole-session' });
    expect(() => parseConversation(decoded.conversation)).not.toThrow();
    expect(JSON.stringify(session.records)).toBe(before);
    expect(convertClaudeCodeSession(session, { view: 'whole-session' })).toEqual(decoded);
  });

  it('should throw UnknownClaudeCodeRecordError for a leafUuid the session does not have', () => {
    const session = parseClaudeCodeSession(jsonl([user('u1', null, 'Go')]));
    expect(() => convertClaudeCodeSession(session, { leafUuid: 'nope' })).toThrowError(UnknownClaudeCodeRecordError);
  });

  it('should return an empty history for a session without messages', () => {
    const { conversation } = convertClaudeCodeSession(parseClaudeCodeSession(''));
    expect(conversation.history).toEqual([]);
  });
});
