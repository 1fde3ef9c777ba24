import { InvalidFormatError, type Conversation, type HistoryEntry } from '@ctx/core';
import { corpusExists, deepFreeze, readCorpusJson } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { createMiniSweAgentCodec } from './mini-swe-agent-codec.js';
import { readManifestEntry } from './test-support/manifest-entry.js';
import { countBlocks, entryKinds, expectExactRoundTrip } from './test-support/round-trip.js';

const codec = createMiniSweAgentCodec();

const system = { role: 'system', content: 'You are a helpful assistant that can interact with a computer shell.' };
const task = { role: 'user', content: '<pr_description>\nrequests.get always sends Content-Length\n</pr_description>' };
const action = (thought: string, command: string) => ({
  role: 'assistant',
  content: `THOUGHT: ${thought}\n\n\`\`\`bash\n${command}\n\`\`\``,
  extra: { response: { model: 'google/gemini-3-pro-preview', usage: { prompt_tokens: 1379, completion_tokens: 171, total_tokens: 1550 } } },
});
const observation = (output: string, returncode = 0) => ({
  role: 'user',
  content: `<returncode>${returncode}</returncode>\n<output>\n${output}</output>`,
});
const formatError = (found: number) => ({
  role: 'user',
  content: `Please always provide EXACTLY ONE action in triple backticks, found ${found} actions.`,
});
const trajectory = (messages: readonly object[], info: object = { exit_status: 'Submitted' }) => ({
  info,
  messages,
  trajectory_format: 'mini-swe-agent-1',
  instance_id: 'psf__requests-1142',
});

describe('createMiniSweAgentCodec', () => {
  it('TA-1: should model a text action and its observation as a bash tool call and its result', () => {
    const value = trajectory([system, task, action('List the files.', 'ls -R requests'), observation('api.py\n')]);
    const { conversation, warnings } = expectExactRoundTrip(codec, value);

    expect(warnings).toEqual([]);
    expect(conversation.system?.map((block) => block.text)).toEqual([system.content]);
    const [taskEntry, call, result] = conversation.history as HistoryEntry[];
    expect(taskEntry).toMatchObject({ speaker: 'human', blocks: [{ type: 'text', text: task.content }] });
    expect(call?.speaker).toBe('ai');
    expect(call?.blocks).toMatchObject([
      { type: 'text', text: 'THOUGHT: List the files.' },
      { type: 'tool_call', id: 'action-2', name: 'bash', parameters: { command: 'ls -R requests' } },
    ]);
    expect(call?.metadata).toMatchObject({
      model: 'google/gemini-3-pro-preview',
      usage: { inputTokens: 1379, outputTokens: 171, totalTokens: 1550 },
    });
    expect(result?.blocks).toEqual([
      { type: 'tool_response', callId: 'action-2', toolName: 'bash', result: observation('api.py\n').content },
    ]);
  });

  it('TA-2: should keep a message with two code blocks as text, warn, and mark the reply as a format error', () => {
    const twoBlocks = {
      role: 'assistant',
      content: 'THOUGHT: Fix the import.\n\n```bash\nsed -i s/a/b/ x.py\n```\n\nWait, check first.\n\n```bash\ngrep a x.py\n```',
    };
    const value = trajectory([system, task, twoBlocks, formatError(2), action('Check first.', 'grep a x.py'), observation('a\n')]);
    const { conversation, warnings } = expectExactRoundTrip(codec, value);

    expect(conversation.history[1]).toMatchObject({ speaker: 'ai', blocks: [{ type: 'text', text: twoBlocks.content }] });
    expect(conversation.history[2]?.speaker).toBe('human');
    expect(entryKinds(conversation)).toEqual([undefined, undefined, 'format-error', undefined, undefined]);
    expect(warnings).toEqual([{ type: 'other', path: 'messages[2]', message: expect.stringContaining('Found 2 ```bash blocks') as unknown }]);
    expect(conversation.history[3]?.blocks[1]).toMatchObject({ type: 'tool_call', id: 'action-4', parameters: { command: 'grep a x.py' } });
  });

  it('TA-3: should keep a message without a code block and its format-error reply as text', () => {
    const noBlock = { role: 'assistant', content: 'THOUGHT: I think the fix is done.' };
    const value = trajectory([system, task, noBlock, formatError(0)]);
    const { conversation, warnings } = expectExactRoundTrip(codec, value);

    expect(countBlocks(conversation, 'tool_call')).toBe(0);
    expect(entryKinds(conversation)).toEqual([undefined, undefined, 'format-error']);
    expect(warnings).toMatchObject([{ type: 'other', path: 'messages[2]' }]);
  });

  it('TA-4: should keep an action nothing answers as text, so the history stays pair-valid', () => {
    // A run that hit its step limit ends with the model's last action and no observation.
    const last = action('Run the tests.', 'pytest -q');
    const value = trajectory([system, task, last], { exit_status: 'LimitsExceeded' });
    const { conversation, warnings } = expectExactRoundTrip(codec, value);

    expect(conversation.history[1]).toMatchObject({ speaker: 'ai', blocks: [{ type: 'text', text: last.content }] });
    expect(entryKinds(conversation)).toEqual([undefined, 'unanswered-action']);
    expect(warnings).toMatchObject([{ type: 'other', path: 'messages[2]' }]);
  });

  it("TA-5: should treat the final submission as the submit command's observation and mark it", () => {
    const diff = 'diff --git a/requests/models.py b/requests/models.py\n+        elif self.method not in (\'GET\', \'HEAD\'):\n';
    const submit = action("I'm done.", 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached');
    const value = trajectory([system, task, submit, { role: 'user', content: diff }], { exit_status: 'Submitted', submission: diff });
    const { conversation } = expectExactRoundTrip(codec, value);

    expect(conversation.history[2]).toMatchObject({
      speaker: 'tool',
      blocks: [{ type: 'tool_response', callId: 'action-2', result: diff }],
      metadata: { providerMetadata: { trajectory: { kind: 'submission' } } },
    });
  });

  it('TA-6: should split around the code block and give back odd whitespace and trailing text exactly', () => {
    const message = { role: 'assistant', content: '\nTHOUGHT: Look.  \n\n```bash   \n  ls -la \n```\n\nThen I will read it.\n' };
    const { conversation } = expectExactRoundTrip(codec, trajectory([task, message, observation('x\n')]));

    expect(conversation.history[1]?.blocks).toMatchObject([
      { type: 'text', text: '\nTHOUGHT: Look.' },
      { type: 'tool_call', parameters: { command: 'ls -la' } },
      { type: 'text', text: 'Then I will read it.\n' },
    ]);
  });

  it('should write edited blocks back: a shortened observation and a rewritten thought', () => {
    const listing = action('List the files.', 'ls');
    const value = trajectory([system, task, listing, observation('a.py\nb.py\n')]);
    const { conversation } = codec.decode(value);
    const [taskEntry, call, result] = conversation.history as HistoryEntry[];
    const edited: Conversation = {
      ...conversation,
      history: [
        taskEntry as HistoryEntry,
        { ...(call as HistoryEntry), blocks: [{ type: 'text', text: 'THOUGHT: Look.' }, ...(call as HistoryEntry).blocks.slice(1)] },
        { ...(result as HistoryEntry), blocks: [{ type: 'tool_response', callId: 'action-2', toolName: 'bash', result: '[2 lines removed]' }] },
      ],
    };
    const { value: encoded, warnings } = codec.encode(edited);

    expect(warnings).toEqual([]);
    expect(encoded.messages.map((message) => message.content)).toEqual([
      system.content,
      task.content,
      'THOUGHT: Look.\n\n```bash\nls\n```',
      '[2 lines removed]',
    ]);
    expect(encoded.messages[2]?.extra).toEqual(listing.extra);
    expect(encoded.info).toEqual(value.info);
  });

  it('should encode a conversation from another format as mini-swe-agent messages, warning about what it drops', () => {
    const foreign: Conversation = {
      system: [{ type: 'text', text: 'Be brief.' }],
      history: [
        { speaker: 'human', blocks: [{ type: 'text', text: 'List the files' }] },
        {
          speaker: 'ai',
          blocks: [
            { type: 'thinking', thought: 'ls will do', signature: 'sig' },
            { type: 'text', text: 'Listing.' },
            { type: 'tool_call', id: 'toolu_1', name: 'bash', parameters: { command: 'ls' } },
          ],
        },
        { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'toolu_1', toolName: 'bash', result: 'a.py' }] },
      ],
    };
    const { value, warnings } = codec.encode(foreign);

    expect(value).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'List the files' },
        { role: 'assistant', content: 'Listing.\n\n```bash\nls\n```' },
        { role: 'user', content: 'a.py' },
      ],
      trajectory_format: 'mini-swe-agent-1',
    });
    expect(warnings).toMatchObject([{ type: 'lossy', path: 'history[1].blocks[0]' }]);
    // What it wrote reads back as the same action and observation.
    expect(codec.decode(value).conversation.history[1]?.blocks).toMatchObject([
      { type: 'text', text: 'Listing.' },
      { type: 'tool_call', name: 'bash', parameters: { command: 'ls' } },
    ]);
  });

  it('should not modify its input, and return an encoded value the caller may modify', () => {
    const value = deepFreeze(trajectory([system, task, action('List.', 'ls'), observation('a\n')]));
    const { conversation } = codec.decode(value);
    const { value: encoded } = codec.encode(conversation);

    expect(Object.isFrozen(conversation.history[1])).toBe(true);
    expect(Object.isFrozen(encoded.messages[2]?.extra)).toBe(false);
    expect(encoded).toEqual(value);
  });

  it('should throw InvalidFormatError naming the failing path', () => {
    const decode = () => codec.decode({ messages: [{ role: 'user', content: 42 }] });

    expect(decode).toThrow(/messages\[0\]\.content/);
    try {
      decode();
    } catch (error) {
      expect(InvalidFormatError.isInstance(error) && error.format).toBe('mini-swe-agent');
    }
  });
});

// The manifest counts every ```bash fence in assistant messages, including the fences of the messages mini-swe-agent
// rejected with a format error (zero or several fences: none of them ran). Only single-fence messages are actions,
// so the tool calls here are the manifest's count minus those fences: django 138 − 38 (in 15 rejected messages),
// psf 73 − 4 (2), sphinx 121 − 23 (10), sympy 134 − 10 (5). Every action is answered, the last by the submission.
const corpusFiles = [
  { file: 'openai-chat/mini-swe-agent/django__django-11138.traj.json', calls: 100, rejected: 15 },
  { file: 'openai-chat/mini-swe-agent/psf__requests-1142.traj.json', calls: 69, rejected: 2 },
  { file: 'openai-chat/mini-swe-agent/sphinx-doc__sphinx-9258.traj.json', calls: 98, rejected: 10 },
  { file: 'openai-chat/mini-swe-agent/sympy__sympy-13091.traj.json', calls: 124, rejected: 5 },
];

describe.skipIf(!corpusExists)('createMiniSweAgentCodec on the recorded corpus', () => {
  it.each(corpusFiles)('should decode $file pair-valid and encode it back exactly', ({ file, calls, rejected }) => {
    const manifest = readManifestEntry(file);
    const { conversation, warnings } = expectExactRoundTrip(codec, readCorpusJson(file));
    const speakers = (speaker: string) => conversation.history.filter((entry) => entry.speaker === speaker).length;

    expect((conversation.system?.length ?? 0) + conversation.history.length).toBe(manifest.messages);
    expect(speakers('ai')).toBe(manifest.roles?.assistant);
    expect(speakers('human') + speakers('tool')).toBe(manifest.roles?.user);
    expect(countBlocks(conversation, 'tool_call')).toBe(calls);
    expect(speakers('tool')).toBe(calls);
    expect(warnings).toHaveLength(rejected);
    expect(entryKinds(conversation).filter((kind) => kind === 'format-error')).toHaveLength(rejected);
    expect(entryKinds(conversation).at(-1)).toBe('submission');
  });
});
