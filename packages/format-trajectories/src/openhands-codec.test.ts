import { InvalidFormatError, type Conversation, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { createOpenHandsCodec } from './openhands-codec.js';
import { countBlocks, entryKinds, expectExactRoundTrip } from './test-support/round-trip.js';

const codec = createOpenHandsCodec();
const timestamp = '2025-04-30T16:32:54.707474';

const modelResponse = (responseId: string, content: string, call: { id: string; name: string; arguments: string }) => ({
  id: responseId,
  created: 1746030777,
  model: 'openai/openrouter-llama-4-maverick',
  object: 'chat.completion',
  choices: [
    {
      finish_reason: 'tool_calls',
      index: 0,
      message: {
        content,
        role: 'assistant',
        tool_calls: [{ index: 1, function: { arguments: call.arguments, name: call.name }, id: call.id, type: 'function' }],
        function_call: null,
      },
    },
  ],
  usage: { completion_tokens: 128, prompt_tokens: 5920, total_tokens: 6048 },
});

const systemEvent = {
  id: 0,
  timestamp,
  source: 'agent',
  message: 'You are OpenHands agent, a helpful AI assistant.',
  action: 'system',
  args: { content: 'You are OpenHands agent, a helpful AI assistant.', tools: [], openhands_version: '0.35.0', agent_class: 'CodeActAgent' },
};
const userMessage = {
  id: 1,
  timestamp,
  source: 'user',
  message: 'Fix the segfault in match.',
  action: 'message',
  args: { content: 'Fix the segfault in match.', image_urls: null, wait_for_response: false },
};
const runAction = (id: number, callId: string, thought: string, command: string) => {
  const metadata = {
    function_name: 'execute_bash',
    tool_call_id: callId,
    model_response: modelResponse(`gen-${id}`, thought, { id: callId, name: 'execute_bash', arguments: `{"command": "${command}"}` }),
    total_calls_in_response: 1,
  };
  return {
    action: {
      id,
      timestamp,
      source: 'agent',
      message: `Running command: ${command}`,
      action: 'run',
      tool_call_metadata: metadata,
      llm_metrics: { accumulated_cost: 0.0 },
      args: { command, is_input: false, thought, blocking: false, hidden: false },
    },
    observation: (content: string) => ({
      id: id + 1,
      timestamp,
      source: 'agent',
      message: `Command \`${command}\` executed with exit code 0.`,
      cause: id,
      observation: 'run',
      tool_call_metadata: metadata,
      content,
      extras: { command, metadata: { exit_code: 0 }, hidden: false },
      success: true,
    }),
  };
};
const session = (history: readonly object[]) => ({
  instance_id: 'ponylang__ponyc-4595',
  instruction: 'Fix the segfault in match.',
  history,
  metrics: { accumulated_cost: 0.0 },
  error: null,
});

describe('createOpenHandsCodec', () => {
  it('TA-7: should model an action and its observation as a tool call named after function_name and its result', () => {
    const listing = runAction(5, 'toolu_01', 'First, list the repository.', 'ls -l /workspace');
    const value = session([systemEvent, userMessage, listing.action, listing.observation('total 300\n-rw-r--r-- BUILD.md')]);
    const { conversation, warnings } = expectExactRoundTrip(codec, value);

    expect(warnings).toEqual([]);
    expect(conversation.system?.map((block) => block.text)).toEqual([systemEvent.args.content]);
    expect(conversation.history[0]).toMatchObject({ speaker: 'human', blocks: [{ type: 'text', text: 'Fix the segfault in match.' }] });
    expect(conversation.history[1]).toMatchObject({
      speaker: 'ai',
      blocks: [
        { type: 'text', text: 'First, list the repository.' },
        { type: 'tool_call', id: 'toolu_01', name: 'execute_bash', parameters: { command: 'ls -l /workspace' } },
      ],
      metadata: { id: '5', timestamp, model: 'openai/openrouter-llama-4-maverick', usage: { inputTokens: 5920, outputTokens: 128, totalTokens: 6048 } },
    });
    expect(conversation.history[2]).toMatchObject({
      speaker: 'tool',
      blocks: [{ type: 'tool_response', callId: 'toolu_01', toolName: 'execute_bash', result: 'total 300\n-rw-r--r-- BUILD.md' }],
    });
  });

  it('TA-8: should keep an action without observation as text, warn, and stay pair-valid', () => {
    const finish = {
      id: 49,
      timestamp,
      source: 'agent',
      message: 'I summarized the changes.',
      action: 'finish',
      tool_call_metadata: {
        function_name: 'finish',
        tool_call_id: 'toolu_23',
        model_response: modelResponse('gen-49', 'I summarized the changes.', { id: 'toolu_23', name: 'finish', arguments: '{"message": "done", "task_completed": "true"}' }),
        total_calls_in_response: 1,
      },
      args: { final_thought: 'done', task_completed: 'true', outputs: {}, thought: 'I summarized the changes.' },
    };
    const { conversation, warnings } = expectExactRoundTrip(codec, session([systemEvent, userMessage, finish]));

    expect(conversation.history[1]).toMatchObject({ speaker: 'ai', blocks: [{ type: 'text', text: 'I summarized the changes.' }] });
    expect(countBlocks(conversation, 'tool_call')).toBe(0);
    expect(entryKinds(conversation)).toEqual([undefined, 'unanswered-action']);
    expect(warnings).toEqual([{ type: 'other', path: 'history[2]', message: expect.stringContaining('finish action (call toolu_23) has no observation') as unknown }]);
  });

  it('should pair an observation by its cause when it carries no tool_call_metadata', () => {
    const listing = runAction(5, 'toolu_01', 'List.', 'ls');
    const { tool_call_metadata: _, ...observation } = listing.observation('a.txt');
    const { conversation } = expectExactRoundTrip(codec, session([userMessage, listing.action, observation]));

    expect(conversation.history[2]?.blocks).toMatchObject([{ type: 'tool_response', callId: 'toolu_01', toolName: 'execute_bash', result: 'a.txt' }]);
  });

  it('should set isError for an error observation that answers a call', () => {
    const listing = runAction(5, 'toolu_01', 'List.', 'ls');
    const error = { ...listing.observation('ERROR: no such directory'), observation: 'error' };
    const { conversation } = expectExactRoundTrip(codec, session([userMessage, listing.action, error]));

    expect(conversation.history[2]?.blocks).toMatchObject([{ type: 'tool_response', callId: 'toolu_01', isError: true }]);
  });

  it('should keep events that are not chat messages (recall, errors outside a call) as marked text entries', () => {
    const recall = { id: 2, timestamp, source: 'user', message: 'Retrieving content for: Fix the', action: 'recall', args: { recall_type: 'workspace_context', query: 'Fix the segfault in match.' } };
    const recalled = { id: 4, timestamp, source: 'environment', message: 'Added workspace context', cause: 2, observation: 'recall', content: 'Added workspace context', extras: { recall_type: 'workspace_context', repo_name: '' } };
    const error = { id: 29, timestamp, source: 'agent', message: "Parameter 'command' is expected to be one of ['view', 'create'].", observation: 'error', content: "Parameter 'command' is expected to be one of ['view', 'create'].", extras: { error_id: '' } };
    const { conversation, warnings } = expectExactRoundTrip(codec, session([systemEvent, userMessage, recall, recalled, error]));

    expect(warnings).toEqual([]);
    expect(entryKinds(conversation)).toEqual([undefined, 'event', 'event', 'event']);
    expect(conversation.history.map((entry) => entry.speaker)).toEqual(['human', 'human', 'human', 'human']);
    expect(conversation.history[3]?.blocks).toEqual([{ type: 'text', text: error.content }]);
  });

  it('should write an edited result and thought back into the events', () => {
    const listing = runAction(5, 'toolu_01', 'List.', 'ls');
    const value = session([userMessage, listing.action, listing.observation('a.txt\nb.txt')]);
    const { conversation } = codec.decode(value);
    const [message, call, result] = conversation.history as HistoryEntry[];
    const edited: Conversation = {
      ...conversation,
      history: [
        message as HistoryEntry,
        { ...(call as HistoryEntry), blocks: [{ type: 'text', text: 'Look.' }, ...(call as HistoryEntry).blocks.slice(1)] },
        { ...(result as HistoryEntry), blocks: [{ type: 'tool_response', callId: 'toolu_01', toolName: 'execute_bash', result: '[elided]' }] },
      ],
    };
    const encoded = codec.encode(edited).value.history;

    expect(encoded[1]).toMatchObject({ args: { thought: 'Look.' }, tool_call_metadata: { model_response: { choices: [{ message: { content: 'Look.' } }] } } });
    expect(encoded[2]).toMatchObject({ content: '[elided]', message: 'Command `ls` executed with exit code 0.' });
  });

  it('should encode a conversation from another format as message actions and generic tool events, warning once', () => {
    const foreign: Conversation = {
      history: [
        { speaker: 'human', blocks: [{ type: 'text', text: 'Fix it' }] },
        { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'toolu_1', name: 'execute_bash', parameters: { command: 'ls' } }] },
        { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'toolu_1', toolName: 'execute_bash', result: 'a.py' }] },
      ],
    };
    const { value, warnings } = codec.encode(foreign);

    expect(value.history).toEqual([
      { source: 'user', message: 'Fix it', action: 'message', args: { content: 'Fix it' } },
      { source: 'agent', message: '', action: 'execute_bash', args: { command: 'ls' }, tool_call_metadata: { function_name: 'execute_bash', tool_call_id: 'toolu_1' } },
      { source: 'agent', message: 'a.py', observation: 'execute_bash', content: 'a.py', tool_call_metadata: { function_name: 'execute_bash', tool_call_id: 'toolu_1' } },
    ]);
    expect(warnings).toMatchObject([{ type: 'lossy' }]);
  });

  it('should throw InvalidFormatError for an event that is neither an action nor an observation', () => {
    const decode = () => codec.decode(session([{ id: 3, source: 'agent', message: 'state changed' }]));

    expect(decode).toThrow(InvalidFormatError);
    expect(decode).toThrow(/history\[0\]: Expected an event with exactly one of `action` and `observation`/);
  });
});
