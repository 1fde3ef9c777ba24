import { corpusExists, readCorpusText } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { createOpenHandsCodec } from './openhands-codec.js';
import { decodeOpenHandsJsonl } from './openhands-jsonl.js';
import { readManifestEntry } from './test-support/manifest-entry.js';
import { countBlocks, expectExactRoundTrip } from './test-support/round-trip.js';

const message = (id: number, text: string) => ({ id, source: 'user', message: text, action: 'message', args: { content: text } });
const line = (instance: string, text: string) => JSON.stringify({ instance_id: instance, history: [message(1, text)] });

describe('decodeOpenHandsJsonl', () => {
  it('TA-9: should report a malformed line with its number and still read the other lines', () => {
    const text = `${line('a', 'first')}\n{"instance_id": "b", "history": [\n${line('c', 'third')}\n`;
    const { sessions, warnings } = decodeOpenHandsJsonl(text);

    expect(sessions.map((session) => [session.line, session.conversation.history[0]?.blocks])).toEqual([
      [1, [{ type: 'text', text: 'first' }]],
      [3, [{ type: 'text', text: 'third' }]],
    ]);
    expect(warnings).toEqual([{ type: 'malformed', line: 2, message: expect.stringContaining('Line 2 is not valid JSON') as unknown }]);
  });

  it('should report a JSON line that is not an OpenHands session, and skip blank and CRLF line ends', () => {
    const text = `${line('a', 'first')}\r\n\r\n{"instance_id": "b"}\r\n`;
    const { sessions, warnings } = decodeOpenHandsJsonl(text);

    expect(sessions.map((session) => session.line)).toEqual([1]);
    expect(warnings).toEqual([{ type: 'malformed', line: 3, message: expect.stringContaining('history: ') as unknown }]);
  });

  it('should give each session warning the line it came from', () => {
    const finish = {
      id: 2,
      source: 'agent',
      message: 'Done.',
      action: 'finish',
      tool_call_metadata: { function_name: 'finish', tool_call_id: 'toolu_9', model_response: null, total_calls_in_response: 1 },
      args: { thought: 'Done.' },
    };
    const text = `${line('a', 'first')}\n${JSON.stringify({ instance_id: 'b', history: [message(1, 'go'), finish] })}\n`;
    const { sessions } = decodeOpenHandsJsonl(text);

    expect(sessions[1]?.warnings).toMatchObject([{ type: 'other', line: 2, path: 'history[1]' }]);
  });
});

const file = 'openhands/multi_swe_bench_examples_output.jsonl';

// The manifest states events and agent actions per session, not tool calls. Every event is one entry (the leading
// system action is `conversation.system`); the agent's actions are the `ai` entries plus that system action. Calls
// are the actions with tool_call_metadata except the two sessions' final `finish`, which no observation answers.
const expectedCalls = [22, 32, 49];

describe.skipIf(!corpusExists)('decodeOpenHandsJsonl on the recorded corpus', () => {
  it('should read the three sessions pair-valid, agree with the manifest, and encode each back exactly', () => {
    const text = readCorpusText(file);
    const manifest = readManifestEntry(file);
    const { sessions, warnings } = decodeOpenHandsJsonl(text);
    const lines = text.split('\n').filter((source) => source !== '');

    expect(warnings).toEqual([]);
    expect(sessions.map((session) => session.line)).toEqual([1, 2, 3]);
    sessions.forEach((session, index) => {
      const stated = manifest.per_session?.[index];
      const { conversation } = expectExactRoundTrip(createOpenHandsCodec(), JSON.parse(lines[index] as string));
      const systemCount = conversation.system?.length ?? 0;

      expect(conversation).toEqual(session.conversation);
      expect(systemCount + conversation.history.length).toBe(stated?.events);
      expect(systemCount + conversation.history.filter((entry) => entry.speaker === 'ai').length).toBe(stated?.actions);
      expect(countBlocks(conversation, 'tool_call')).toBe(expectedCalls[index]);
    });
    expect(sessions.reduce((total, session) => total + (session.conversation.system?.length ?? 0) + session.conversation.history.length, 0)).toBe(manifest.messages);
    expect(sessions.map((session) => session.warnings.length)).toEqual([1, 1, 0]);
  });
});
