import { InvalidFormatError, type Conversation, type HistoryEntry } from '@ctx/core';
import { corpusExists, readCorpusJson } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { createGeminiCliCodec } from './gemini-cli-codec.js';
import { readManifestEntry } from './test-support/manifest-entry.js';
import { allBlocks, countBlocks, entryKinds, expectExactRoundTrip } from './test-support/round-trip.js';

const codec = createGeminiCliCodec();

const user = { id: 'b544', timestamp: '2026-01-11T00:26:04.096Z', type: 'user', content: 'whoami' };
const functionResponse = (id: string, name: string, response: object) => [{ functionResponse: { id, name, response } }];
const shellCall = (status: string, response: object) => ({
  id: 'run_shell_command-1768091166681',
  name: 'run_shell_command',
  args: { command: 'whoami', description: 'Identify the current user.' },
  result: functionResponse('run_shell_command-1768091166681', 'run_shell_command', response),
  status,
  timestamp: '2026-01-11T00:26:09.528Z',
  resultDisplay: 'mischa',
  displayName: 'Shell',
  description: 'This tool executes a given shell command as `bash -c <command>`.',
  renderOutputAsMarkdown: false,
});
const gemini = (toolCalls?: readonly object[]) => ({
  id: 'bdf8',
  timestamp: '2026-01-11T00:26:06.714Z',
  type: 'gemini',
  content: 'I will run `whoami`.',
  thoughts: [{ subject: 'Initiating Response', description: 'I will use the shell tool.', timestamp: '2026-01-11T00:26:06.169Z' }],
  tokens: { input: 8737, output: 49, cached: 0, thoughts: 86, tool: 0, total: 8872 },
  model: 'gemini-3-flash-preview',
  ...(toolCalls === undefined ? {} : { toolCalls }),
});
const recording = (messages: readonly object[]) => ({
  sessionId: '17b4d5e9',
  projectHash: '86bc0e27',
  startTime: '2026-01-11T00:26:04.096Z',
  lastUpdated: '2026-01-11T05:10:54.175Z',
  messages,
  summary: 'Identify the user.',
});

describe('createGeminiCliCodec', () => {
  it('TA-10: should turn a gemini message into thinking, text and tool calls followed by one tool entry with the results', () => {
    const call = shellCall('success', { output: 'Command: whoami\nOutput: mischa\nExit Code: 0' });
    const { conversation, warnings } = expectExactRoundTrip(codec, recording([user, gemini([call])]));

    expect(warnings).toEqual([]);
    expect(conversation.history).toHaveLength(3);
    expect(conversation.history[0]).toMatchObject({ speaker: 'human', blocks: [{ type: 'text', text: 'whoami' }], metadata: { id: 'b544' } });
    expect(conversation.history[1]).toMatchObject({
      speaker: 'ai',
      blocks: [
        { type: 'thinking', thought: 'I will use the shell tool.' },
        { type: 'text', text: 'I will run `whoami`.' },
        { type: 'tool_call', id: call.id, name: 'run_shell_command', parameters: call.args },
      ],
      metadata: { id: 'bdf8', model: 'gemini-3-flash-preview', usage: { inputTokens: 8737, outputTokens: 49, cacheReadTokens: 0, totalTokens: 8872 } },
    });
    // The result is kept as recorded JSON: its shape varies by tool.
    expect(conversation.history[2]?.blocks).toEqual([{ type: 'tool_response', callId: call.id, toolName: 'run_shell_command', result: call.result }]);
  });

  it('should set isError for calls recorded with status error or cancelled', () => {
    const failed = { ...shellCall('error', { error: 'Command failed' }), id: 'failed' };
    const cancelled = { ...shellCall('cancelled', { error: '[Operation Cancelled] Reason: User cancelled the operation.' }), id: 'cancelled' };
    const { conversation } = expectExactRoundTrip(codec, recording([user, gemini([failed, cancelled])]));

    expect(conversation.history[2]?.blocks).toMatchObject([
      { callId: 'failed', isError: true },
      { callId: 'cancelled', isError: true },
    ]);
  });

  it('should keep info messages as marked human text entries', () => {
    const info = { id: '5184', timestamp: '2026-01-11T00:27:57.111Z', type: 'info', content: 'Request cancelled.' };
    const { conversation } = expectExactRoundTrip(codec, recording([user, info, gemini()]));

    expect(conversation.history.map((entry) => entry.speaker)).toEqual(['human', 'human', 'ai']);
    expect(entryKinds(conversation)).toEqual([undefined, 'event', undefined]);
    expect(conversation.history[1]?.blocks).toEqual([{ type: 'text', text: 'Request cancelled.' }]);
  });

  it('should keep a call without a recorded result in the message and warn, so the history stays pair-valid', () => {
    const { result: _, ...pending } = shellCall('executing', {});
    const { conversation, warnings } = expectExactRoundTrip(codec, recording([user, gemini([pending])]));

    expect(countBlocks(conversation, 'tool_call')).toBe(0);
    expect(entryKinds(conversation)).toEqual([undefined, 'unanswered-action']);
    expect(warnings).toMatchObject([{ type: 'other', path: 'messages[1]' }]);
  });

  it('should write an edited result and text back into the message', () => {
    const call = shellCall('success', { output: 'long output' });
    const { conversation } = codec.decode(recording([user, gemini([call])]));
    const [question, answer] = conversation.history as HistoryEntry[];
    const edited: Conversation = {
      ...conversation,
      history: [
        question as HistoryEntry,
        { ...(answer as HistoryEntry), blocks: (answer as HistoryEntry).blocks.map((block) => (block.type === 'text' ? { ...block, text: 'Running it.' } : block)) },
        { speaker: 'tool', blocks: [{ type: 'tool_response', callId: call.id, toolName: call.name, result: '[elided]' }] },
      ],
    };
    const message = codec.encode(edited).value.messages[1];

    expect(message).toEqual({ ...gemini([{ ...call, result: '[elided]' }]), content: 'Running it.' });
  });

  it('should encode a conversation from another format, results inside the calls', () => {
    const foreign: Conversation = {
      history: [
        { speaker: 'human', blocks: [{ type: 'text', text: 'whoami' }] },
        { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'c1', name: 'run_shell_command', parameters: { command: 'whoami' } }] },
        { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'c1', toolName: 'run_shell_command', result: 'mischa', isError: false }] },
      ],
    };

    expect(codec.encode(foreign)).toEqual({
      value: {
        messages: [
          { type: 'user', content: 'whoami' },
          { type: 'gemini', content: '', toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'whoami' }, result: 'mischa', status: 'success' }] },
        ],
      },
      warnings: [],
    });
  });

  it('should find the results of an assistant turn spread over several ai entries', () => {
    const call = (id: string) => ({ type: 'tool_call' as const, id, name: 'read_file', parameters: { path: `${id}.md` } });
    const result = (id: string) => ({ type: 'tool_response' as const, callId: id, toolName: 'read_file', result: `# ${id}` });
    const foreign: Conversation = {
      history: [
        { speaker: 'ai', blocks: [call('a')] },
        { speaker: 'ai', blocks: [call('b')] },
        { speaker: 'tool', blocks: [result('a')] },
        { speaker: 'tool', blocks: [result('b')] },
      ],
    };
    const { value, warnings } = codec.encode(foreign);

    expect(warnings).toEqual([]);
    expect(value.messages.map((message) => message.toolCalls)).toEqual([
      [{ id: 'a', name: 'read_file', args: { path: 'a.md' }, result: '# a', status: 'success' }],
      [{ id: 'b', name: 'read_file', args: { path: 'b.md' }, result: '# b', status: 'success' }],
    ]);
  });

  it('should throw InvalidFormatError naming the failing path', () => {
    expect(() => codec.decode(recording([{ type: 'user', content: ['parts'] }]))).toThrow(/messages\[0\]\.content/);
    expect(() => codec.decode(recording([{ type: 'user', content: ['parts'] }]))).toThrow(InvalidFormatError);
  });
});

describe.skipIf(!corpusExists)('createGeminiCliCodec on the recorded corpus', () => {
  it('should decode the session pair-valid, agree with the manifest, and encode it back exactly', () => {
    const file = 'gemini-cli/session-2026-01-11T00-25-17b4d5e9.json';
    const manifest = readManifestEntry(file);
    const { conversation, warnings } = expectExactRoundTrip(codec, readCorpusJson(file));
    const entries = (speaker: string) => conversation.history.filter((entry) => entry.speaker === speaker);

    expect(warnings).toEqual([]);
    // Every message is one entry; each gemini message with calls is followed by one tool entry holding the results.
    expect(conversation.history.length - entries('tool').length).toBe(manifest.messages);
    expect(entries('ai')).toHaveLength(manifest.types?.gemini ?? -1);
    expect(entryKinds(conversation).filter((kind) => kind === 'event')).toHaveLength(manifest.types?.info ?? -1);
    expect(countBlocks(conversation, 'tool_call')).toBe(manifest.tool_calls);
    expect(countBlocks(conversation, 'tool_response')).toBe(manifest.tool_calls);
    expect(allBlocks(conversation).filter((block) => block.type === 'tool_response' && block.isError === true)).toHaveLength(3);
  });
});
