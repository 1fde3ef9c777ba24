import {
  HistoryService,
  InvalidFormatError,
  createTokenCounter,
  type Conversation,
  type HistoryEntry,
  type Tokenizer,
} from '@ctx/core';
import { corpusExists, readCorpusJson } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { createSweAgentCodec } from './swe-agent-codec.js';
import { readManifestEntry } from './test-support/manifest-entry.js';
import { allBlocks, countBlocks, entryKinds, expectExactRoundTrip } from './test-support/round-trip.js';

const codec = createSweAgentCodec();
const characterTokenizer: Tokenizer = { specificationVersion: 'v1', name: 'characters', countTokens: (text) => text.length };

const system = { role: 'system', content: 'SETTING: You are an autonomous programmer.', agent: 'primary' };
const task = { role: 'user', content: "We're currently solving the following issue within our repository.", agent: 'primary' };
// SWE-agent records the parsed thought and action beside the raw message.
const textAction = (thought: string, action: string) => ({
  role: 'assistant',
  content: `${thought}\n\n\`\`\`\n${action}\`\`\``,
  thought: `${thought}\n\n`,
  action,
  agent: 'primary',
});
const textObservation = (output: string) => ({
  role: 'user',
  content: `${output}\n(Open file: n/a)\n(Current directory: /pydicom__pydicom)\nbash-$`,
  agent: 'primary',
});
const trajectory = (history: readonly object[]) => ({
  environment: 'swe_main',
  trajectory: [],
  history,
  info: { exit_status: 'submitted', submission: '' },
});

const nativeAction = {
  role: 'assistant',
  content: "Let's look at setup.py.",
  thought: "Let's look at setup.py.",
  action: 'open "setup.py"',
  agent: 'main',
  tool_calls: [{ function: { arguments: '{"path":"setup.py"}', name: 'open' }, id: 'call_m6a0', type: 'function' }],
  message_type: 'action',
};
const nativeObservation = {
  role: 'tool',
  content: '[File: setup.py (94 lines total)]\r\n1:import re',
  agent: 'main',
  message_type: 'observation',
  tool_call_ids: ['call_m6a0'],
};

describe('createSweAgentCodec', () => {
  it('TA-1: should model a text-mode action and its observation as a bash tool call and its result', () => {
    const value = trajectory([system, task, textAction('Create the script.', 'create reproduce_bug.py\n'), textObservation('[File: reproduce_bug.py (1 lines total)]')]);
    const { conversation, warnings } = expectExactRoundTrip(codec, value);

    expect(warnings).toEqual([]);
    expect(conversation.system?.map((block) => block.text)).toEqual([system.content]);
    expect(conversation.history[1]).toMatchObject({
      speaker: 'ai',
      blocks: [
        { type: 'text', text: 'Create the script.' },
        { type: 'tool_call', id: 'action-2', name: 'bash', parameters: { command: 'create reproduce_bug.py' } },
      ],
      // `thought` and `action` are re-derived from the message text instead of being stored twice.
      metadata: { providerMetadata: { trajectory: { derived: ['content', 'thought', 'action'] } } },
    });
    expect(conversation.history[2]?.blocks).toMatchObject([{ type: 'tool_response', callId: 'action-2', toolName: 'bash' }]);
  });

  it('TA-2: should take the last of several code blocks as the action, as SWE-agent does, and warn', () => {
    const content = 'The plan:\n```\nls\n```\nFirst find it.\n```\nfind_file "numpy_handler.py"\n```';
    const message = { role: 'assistant', content, thought: 'The plan:\n```\nls\n```\nFirst find it.\n', action: 'find_file "numpy_handler.py"\n', agent: 'primary' };
    const { conversation, warnings } = expectExactRoundTrip(codec, trajectory([task, message, textObservation('Found 3 matches')]));

    expect(conversation.history[1]?.blocks).toMatchObject([
      { type: 'text', text: 'The plan:\n```\nls\n```\nFirst find it.' },
      { type: 'tool_call', parameters: { command: 'find_file "numpy_handler.py"' } },
    ]);
    expect(warnings).toEqual([{ type: 'other', path: 'history[1]', message: expect.stringContaining('Found 2 code blocks') as unknown }]);
  });

  it('should keep a recorded thought that differs from the message text, and re-derive the action after an edit', () => {
    // Recorded in the CTF demonstration: the thought lacks the newline the message has before its code block.
    const message = { role: 'assistant', content: 'Try `/flag`.\n```\ncurl http://web:8000/file.pl?/flag\n```', thought: 'Try `/flag`.', action: 'curl http://web:8000/file.pl?/flag\n', agent: 'primary' };
    const value = trajectory([task, message, textObservation('FLAG{x}')]);
    const { conversation } = expectExactRoundTrip(codec, value);
    const [taskEntry, call, result] = conversation.history as HistoryEntry[];
    const edited: Conversation = {
      ...conversation,
      history: [
        taskEntry as HistoryEntry,
        { ...(call as HistoryEntry), blocks: (call as HistoryEntry).blocks.map((block) => (block.type === 'tool_call' ? { ...block, parameters: { command: 'curl http://web:8000/' } } : block)) },
        result as HistoryEntry,
      ],
    };

    expect(codec.encode(edited).value.history[1]).toEqual({
      ...message,
      content: 'Try `/flag`.\n```\ncurl http://web:8000/\n```',
      action: 'curl http://web:8000/\n',
    });
  });

  it('TA-7: should model native tool calls and tool messages with their recorded names and arguments', () => {
    const value = trajectory([system, task, nativeAction, nativeObservation]);
    const { conversation } = expectExactRoundTrip(codec, value);

    expect(conversation.history[1]?.blocks).toMatchObject([
      { type: 'text', text: "Let's look at setup.py." },
      { type: 'tool_call', id: 'call_m6a0', name: 'open', parameters: { path: 'setup.py' } },
    ]);
    expect(conversation.history[2]?.blocks).toEqual([
      { type: 'tool_response', callId: 'call_m6a0', toolName: 'open', result: nativeObservation.content },
    ]);
  });

  it('TA-4: should keep the final submit, which nothing answers, as text and warn', () => {
    const submit = textAction('Submit the fix.', 'submit\n');
    const { conversation, warnings } = expectExactRoundTrip(codec, trajectory([system, task, submit]));

    expect(conversation.history[1]).toMatchObject({ speaker: 'ai', blocks: [{ type: 'text', text: submit.content }] });
    expect(entryKinds(conversation)).toEqual([undefined, 'unanswered-action']);
    expect(warnings).toMatchObject([{ type: 'other', path: 'history[2]' }]);
  });

  it('should write edited native parameters and results back', () => {
    const { conversation } = codec.decode(trajectory([task, nativeAction, nativeObservation]));
    const [taskEntry, call, result] = conversation.history as HistoryEntry[];
    const edited: Conversation = {
      ...conversation,
      history: [
        taskEntry as HistoryEntry,
        { ...(call as HistoryEntry), blocks: (call as HistoryEntry).blocks.map((block) => (block.type === 'tool_call' ? { ...block, parameters: { path: 'setup.cfg' } } : block)) },
        { ...(result as HistoryEntry), blocks: [{ type: 'tool_response', callId: 'call_m6a0', toolName: 'open', result: '[elided]' }] },
      ],
    };
    const { value } = codec.encode(edited);

    expect(value.history[1]?.tool_calls).toEqual([{ function: { arguments: '{"path":"setup.cfg"}', name: 'open' }, id: 'call_m6a0', type: 'function' }]);
    expect(value.history[2]).toEqual({ ...nativeObservation, content: '[elided]' });
  });

  describe('a call id recorded twice (a replayed run)', () => {
    const again = (id: string, path: string) => ({
      ...nativeAction,
      content: `Open ${path} again.`,
      thought: `Open ${path} again.`,
      tool_calls: [{ function: { arguments: JSON.stringify({ path }), name: 'open' }, id, type: 'function' }],
    });
    const answer = (id: string, content: string) => ({ ...nativeObservation, content, tool_call_ids: [id] });
    const value = trajectory([task, nativeAction, nativeObservation, again('call_m6a0', 'setup.cfg'), answer('call_m6a0', '[File: setup.cfg]')]);

    it('should give the later call an id of its own, pair its answer with it and warn where', () => {
      const { conversation, warnings } = codec.decode(value);

      expect(conversation.history[3]?.blocks).toMatchObject([{ type: 'text' }, { type: 'tool_call', id: 'call_m6a0_2', parameters: { path: 'setup.cfg' } }]);
      expect(conversation.history[4]?.blocks).toEqual([
        { type: 'tool_response', callId: 'call_m6a0_2', toolName: 'open', result: '[File: setup.cfg]' },
      ]);
      expect(conversation.history[2]?.blocks).toMatchObject([{ callId: 'call_m6a0', result: nativeObservation.content }]);
      expect(warnings).toEqual([
        {
          type: 'other',
          path: 'history[3].tool_calls[0].id',
          message: expect.stringMatching(/"call_m6a0" is also the id of an earlier call \(history\[1\]\.tool_calls\[0\]\); this call is "call_m6a0_2"/) as unknown,
        },
      ]);
    });

    it('should write the recorded id back, for the call and its answer', () => {
      expectExactRoundTrip(codec, value);
    });

    it('should not call a repeated id renamed when its call, never answered, stays text', () => {
      const unanswered = trajectory([task, nativeAction, nativeObservation, again('call_m6a0', 'setup.cfg')]);
      const { conversation, warnings } = expectExactRoundTrip(codec, unanswered);

      expect(entryKinds(conversation)).toEqual([undefined, undefined, undefined, 'unanswered-action']);
      expect(warnings).toEqual([{ type: 'other', path: 'history[3]', message: expect.stringContaining('no tool message answering it') as unknown }]);
    });

    it('should give HistoryService entries it accepts one by one, as an agent loop adds them', () => {
      const service = new HistoryService({ tokenCounter: createTokenCounter(characterTokenizer) });
      for (const entry of codec.decode(value).conversation.history) service.add(entry);

      expect(service.getAll()).toHaveLength(5);
    });

    it('should write the recorded id into an answer a strategy rebuilt without its metadata', () => {
      const { conversation } = codec.decode(value);
      const rebuilt: Conversation = {
        ...conversation,
        history: conversation.history.map((entry, index) =>
          index === 4 ? { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'call_m6a0_2', toolName: 'open', result: '[elided]' }] } : entry,
        ),
      };

      expect(codec.encode(rebuilt).value.history[4]).toEqual({ role: 'tool', content: '[elided]', tool_call_ids: ['call_m6a0'] });
    });
  });

  it('should encode a conversation from another format with native tool calls', () => {
    const foreign: Conversation = {
      history: [
        { speaker: 'human', blocks: [{ type: 'text', text: 'Fix it' }] },
        { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'toolu_1', name: 'bash', parameters: { command: 'ls' } }] },
        { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'toolu_1', toolName: 'bash', result: 'a.py' }] },
      ],
    };

    expect(codec.encode(foreign)).toEqual({
      value: {
        history: [
          { role: 'user', content: 'Fix it' },
          { role: 'assistant', content: '', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
          { role: 'tool', content: 'a.py', tool_call_ids: ['toolu_1'] },
        ],
      },
      warnings: [],
    });
  });

  it('should throw InvalidFormatError naming the failing path', () => {
    const decode = () => codec.decode({ history: [{ role: 'assistant', content: 'x', tool_calls: [{ id: 'c', function: { name: 'bash' } }] }] });

    expect(decode).toThrow(/history\[0\]\.tool_calls\[0\]\.function\.arguments/);
    expect(() => codec.decode('not a trajectory')).toThrow(InvalidFormatError);
  });
});

// The manifest counts every action; in text mode the final `submit` has no observation (the run ends), so it stays
// text and is one call fewer here: ctf 21 − 1, pydicom 12 − 1. The function-calling run answers its `submit`.
const corpusFiles = [
  { file: 'swe-agent/ctf_web_i_got_id_demo.traj', calls: 20, warnings: 1, renamed: 0 },
  { file: 'swe-agent/gpt4__pydicom-1458.traj', calls: 11, warnings: 1, renamed: 0 },
  { file: 'swe-agent/marshmallow-1867__function_calling_replace_from_source.traj', calls: 13, warnings: 0, renamed: 4 },
];

describe.skipIf(!corpusExists)('createSweAgentCodec on the recorded corpus', () => {
  it.each(corpusFiles)('should decode $file pair-valid and encode it back exactly', ({ file, calls, warnings: warningCount, renamed }) => {
    const manifest = readManifestEntry(file);
    const { conversation, warnings } = expectExactRoundTrip(codec, readCorpusJson(file));

    expect((conversation.system?.length ?? 0) + conversation.history.length).toBe(manifest.messages);
    expect(conversation.history.filter((entry) => entry.speaker === 'ai')).toHaveLength(manifest.roles?.assistant ?? -1);
    expect(countBlocks(conversation, 'tool_call')).toBe(calls);
    expect(manifest.tool_calls).toBe(calls + warningCount);
    // Calls kept as text are warned, and so are calls renamed because an earlier call had their id.
    const renames = warnings.filter((warning) => warning.path?.endsWith('.id') === true);
    expect(renames).toHaveLength(renamed);
    expect(warnings).toHaveLength(warningCount + renamed);
    const ids = allBlocks(conversation).flatMap((block) => (block.type === 'tool_call' ? [block.id] : []));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('should keep the native tool names of the function-calling run', () => {
    const { conversation } = codec.decode(readCorpusJson('swe-agent/marshmallow-1867__function_calling_replace_from_source.traj'));
    const names = new Set(allBlocks(conversation).flatMap((block) => (block.type === 'tool_call' ? [block.name] : [])));

    expect([...names].sort()).toEqual(['bash', 'create', 'edit', 'find_file', 'insert', 'open', 'submit']);
    expect(countBlocks(conversation, 'tool_call')).toBe(readManifestEntry('swe-agent/marshmallow-1867__function_calling_replace_from_source.traj').openai_tool_calls);
  });
});
