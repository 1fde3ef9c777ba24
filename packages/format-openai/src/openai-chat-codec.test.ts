import {
  HistoryService,
  InvalidFormatError,
  createTokenCounter,
  findToolPairingProblems,
  type Conversation,
  type HistoryEntry,
  type JsonValue,
} from '@ctx/core';
import { deepFreeze } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { openAIChatCodec } from './openai-chat-codec.js';
import { validateOpenAIRequest } from './validate-openai-request.js';

/** Decodes a frozen copy of `input` (so writing to it would throw) and checks the exact round trip. */
function roundTrip(input: object) {
  const frozen = deepFreeze(structuredClone(input));
  const decoded = openAIChatCodec.decode(frozen);
  const encoded = openAIChatCodec.encode(decoded.conversation);
  expect(encoded.value).toStrictEqual(input);
  return { ...decoded, encoded };
}

function issuesOf(input: unknown) {
  try {
    openAIChatCodec.decode(input);
  } catch (error) {
    if (InvalidFormatError.isInstance(error)) return error.issues;
    throw error;
  }
  throw new Error('Expected an InvalidFormatError');
}

const callMessage = (id: string, argumentsText: string, name = 'read_file') => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: argumentsText } }],
});

function parametersOf(argumentsText: string): JsonValue {
  const { conversation } = roundTrip({ messages: [callMessage('call_1', argumentsText)] });
  const [block] = conversation.history[0]?.blocks ?? [];
  return block?.type === 'tool_call' ? block.parameters : 'no tool call';
}

const user = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const call = (id: string) => ({ type: 'tool_call', id, name: 'read_file', parameters: { path: `${id}.ts` } } as const);
const response = (callId: string, result: JsonValue) =>
  ({ type: 'tool_response', callId, toolName: 'read_file', result } as const);

function encodeHistory(history: readonly HistoryEntry[], rest: Partial<Conversation> = {}) {
  return openAIChatCodec.encode({ history, ...rest });
}

describe('openAIChatCodec', () => {
  it('should identify itself as the v1 openai-chat codec', () => {
    expect(openAIChatCodec.specificationVersion).toBe('v1');
    expect(openAIChatCodec.format).toBe('openai-chat');
  });

  describe('decode', () => {
    it('OA-001: should turn a string user message into a human entry with one text block, and back into a string', () => {
      const { conversation } = roundTrip({ messages: [{ role: 'user', content: 'Fix the test' }] });
      expect(conversation.history).toEqual([user('Fix the test')]);
    });

    it('OA-002: should keep a one-part array as an array', () => {
      roundTrip({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
    });

    it('OA-003: should map leading system and developer messages to conversation.system', () => {
      const { conversation } = roundTrip({
        messages: [
          { role: 'system', content: 'You are a coding agent.' },
          {
            role: 'developer',
            content: [
              { type: 'text', text: 'Rule 1' },
              { type: 'text', text: 'Rule 2' },
            ],
            name: 'ops',
          },
          { role: 'user', content: 'go' },
        ],
      });
      expect(conversation.system?.map((block) => block.text)).toEqual(['You are a coding agent.', 'Rule 1', 'Rule 2']);
      expect(conversation.history).toEqual([user('go')]);
    });

    it('OA-004: should keep a later system message in place as a human entry marked with its role', () => {
      const { conversation } = roundTrip({
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: 'ok' },
          { role: 'system', content: 'Context is 90% full.' },
        ],
      });
      expect(conversation.system).toBeUndefined();
      expect(conversation.history[2]).toEqual({
        speaker: 'human',
        blocks: [{ type: 'text', text: 'Context is 90% full.' }],
        metadata: { providerMetadata: { openai: { role: 'system' } } },
      });
    });

    it('OA-005: should parse arguments into parameters and give the exact string back', () => {
      expect(parametersOf('{"path":"a.ts"}')).toEqual({ path: 'a.ts' });
      expect(parametersOf('{"path": "a.ts", "n": 1.0}')).toEqual({ path: 'a.ts', n: 1 });
      expect(parametersOf('{"path": "a.ts"')).toBe('{"path": "a.ts"');
      expect(parametersOf('"a.ts"')).toBe('a.ts');
      expect(parametersOf('')).toBe('');
      expect(parametersOf('1e999')).toBe('1e999');
    });

    it('OA-006: should write edited parameters instead of the stale original string', () => {
      const { conversation } = openAIChatCodec.decode({ messages: [callMessage('call_1', '{"path": "a.ts"}')] });
      const [entry] = conversation.history;
      const [block] = entry?.blocks ?? [];
      if (entry === undefined || block?.type !== 'tool_call') throw new Error('expected a tool call');
      const edited = { ...entry, blocks: [{ ...block, parameters: { path: 'b.ts' } }] };
      const { value } = openAIChatCodec.encode({ history: [edited] });
      expect(value.messages[0]).toMatchObject({ tool_calls: [{ function: { arguments: '{"path":"b.ts"}' } }] });
    });

    it('OA-007: should map tool messages to tool entries named after their call', () => {
      const { conversation, warnings } = roundTrip({
        messages: [
          { role: 'user', content: 'read' },
          callMessage('call_1', '{}', 'read_file'),
          { role: 'tool', tool_call_id: 'call_1', content: 'export {}' },
          { role: 'tool', tool_call_id: 'call_9', content: [{ type: 'text', text: 'late' }] },
        ],
      });
      expect(conversation.history.slice(2)).toEqual([
        {
          speaker: 'tool',
          blocks: [{ type: 'tool_response', callId: 'call_1', toolName: 'read_file', result: 'export {}' }],
        },
        {
          speaker: 'tool',
          blocks: [{ type: 'tool_response', callId: 'call_9', toolName: '', result: [{ type: 'text', text: 'late' }] }],
        },
      ]);
      expect(warnings).toEqual([expect.objectContaining({ type: 'other', path: 'messages[3]' })]);
    });

    it('OA-008: should tell null, absent, empty and array assistant content apart', () => {
      roundTrip({
        messages: [
          { role: 'assistant', content: null, tool_calls: [] },
          { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'assistant', content: '' },
          { role: 'assistant', content: [] },
        ],
      });
    });

    it('OA-009: should keep refusals, as a part and as the message field', () => {
      const { conversation } = roundTrip({
        messages: [
          { role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot.' }] },
          { role: 'assistant', content: null, refusal: 'I will not.' },
        ],
      });
      expect(conversation.history.map((entry) => entry.blocks[0]?.type === 'text' && entry.blocks[0].text)).toEqual([
        'I cannot.',
        'I will not.',
      ]);
    });

    it('OA-010: should map image, audio and inline file parts to media blocks, and keep file ids opaque', () => {
      const { conversation, warnings } = roundTrip({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'high' } },
              { type: 'image_url', image_url: { url: 'https://x.test/cat.webp' } },
              { type: 'input_audio', input_audio: { data: 'UklGR', format: 'mp3' } },
              { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'spec.pdf' } },
              { type: 'file', file: { file_id: 'file-abc' } },
            ],
          },
        ],
      });
      expect(conversation.history[0]?.blocks).toEqual([
        {
          type: 'media',
          mediaType: 'image/png',
          data: 'iVBORw0KGgo=',
          providerMetadata: { openai: { imageUrl: { detail: 'high' } } },
        },
        { type: 'media', mediaType: 'image/webp', url: 'https://x.test/cat.webp' },
        { type: 'media', mediaType: 'audio/mpeg', data: 'UklGR' },
        { type: 'media', mediaType: 'application/pdf', data: 'JVBERi0=', filename: 'spec.pdf' },
      ]);
      expect(warnings).toEqual([expect.objectContaining({ type: 'unsupported', path: 'messages[0].content[4]' })]);
    });

    it('should read an audio format or image extension named like a property every object has as any unknown one', () => {
      // Both are looked up in tables of known ones: the audio format `constructor` threw a TypeError.
      const { conversation } = roundTrip({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'input_audio', input_audio: { data: 'UklGR', format: 'constructor' } },
              { type: 'image_url', image_url: { url: 'https://x.test/cat.constructor' } },
            ],
          },
        ],
      });
      expect(conversation.history[0]?.blocks).toEqual([
        { type: 'media', mediaType: 'audio/constructor', data: 'UklGR' },
        { type: 'media', mediaType: 'image/*', url: 'https://x.test/cat.constructor' },
      ]);
    });

    it('OA-011: should pair a legacy function_call with the function message answering it', () => {
      const { conversation } = roundTrip({
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '{"city": "Paris"}' } },
          { role: 'function', name: 'get_weather', content: '18°C' },
        ],
      });
      expect(conversation.history[1]?.blocks[0]).toMatchObject({
        type: 'tool_call',
        name: 'get_weather',
        parameters: { city: 'Paris' },
      });
      expect(conversation.history[2]?.blocks[0]).toMatchObject({
        type: 'tool_response',
        toolName: 'get_weather',
        result: '18°C',
      });
      expect(findToolPairingProblems(conversation.history)).toEqual([]);
    });

    it('OA-012: should keep unknown message fields of trajectory files untouched', () => {
      const { conversation } = roundTrip({
        messages: [
          {
            role: 'assistant',
            content: 'ls',
            thought: 'look around',
            action: 'ls -F',
            agent: 'main',
            message_type: 'action',
            extra: { cost: 0.1 },
          },
        ],
      });
      expect(conversation.history[0]?.metadata?.providerMetadata?.openai?.message).toEqual({
        thought: 'look around',
        action: 'ls -F',
        agent: 'main',
        message_type: 'action',
        extra: { cost: 0.1 },
      });
    });

    it("OA-013: should read SWE-agent's tool_call_ids in place of tool_call_id", () => {
      const { conversation } = roundTrip({
        messages: [
          callMessage('call_1', '{"command":"ls"}', 'bash'),
          { role: 'tool', content: 'a.py', agent: 'main', message_type: 'observation', tool_call_ids: ['call_1'] },
        ],
      });
      expect(conversation.history[1]?.blocks[0]).toMatchObject({ callId: 'call_1', toolName: 'bash' });
    });

    it('OA-014: should keep consecutive assistant messages apart', () => {
      const { conversation } = roundTrip({
        messages: [
          { role: 'assistant', content: 'one' },
          { role: 'assistant', content: 'two' },
        ],
      });
      expect(conversation.history).toHaveLength(2);
    });

    it('OA-015: should reject input that is not OpenAI chat, naming the paths', () => {
      expect(
        issuesOf({
          messages: [
            { role: 'user', content: 'go' },
            { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: 3 } }] },
            { role: 'tool', content: 'x' },
            { role: 'robot', content: 'x' },
          ],
        }).map((issue) => issue.path),
      ).toEqual(['messages[1].tool_calls[0].function.arguments', 'messages[2].tool_call_id', 'messages[3].role']);
      expect(issuesOf({ messages: 'hi' }).map((issue) => issue.path)).toEqual(['messages']);
    });

    it('OA-016: should keep custom tools and custom tool calls', () => {
      const { conversation } = roundTrip({
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'custom', custom: { name: 'sql', input: 'SELECT 1' } }],
          },
        ],
        tools: [{ type: 'custom', custom: { name: 'sql', description: 'Runs SQL', format: { type: 'text' } } }],
      });
      expect(conversation.history[0]?.blocks[0]).toMatchObject({
        type: 'tool_call',
        name: 'sql',
        parameters: 'SELECT 1',
      });
      expect(conversation.tools?.[0]).toMatchObject({ name: 'sql', description: 'Runs SQL' });
    });

    it('OA-017: should map function tools to conversation.tools, parameters to inputSchema', () => {
      const parameters = { type: 'object', properties: { path: { type: 'string' } } };
      const { conversation } = roundTrip({
        model: 'gpt-4.1',
        temperature: 0,
        messages: [],
        tools: [{ type: 'function', function: { name: 'read_file', description: 'Reads', parameters, strict: true } }],
      });
      expect(conversation.tools).toEqual([
        {
          name: 'read_file',
          description: 'Reads',
          inputSchema: parameters,
          providerMetadata: { openai: { strict: true } },
        },
      ]);
      expect(conversation.providerMetadata).toEqual({ openai: { request: { model: 'gpt-4.1', temperature: 0 } } });
    });
  });

  it('OA-113: should give back a field named __proto__ at any level of the request, as JSON holds it', () => {
    // JSON.parse keeps `__proto__` as an ordinary field; assigning it while copying would set a prototype instead.
    const request = JSON.parse(
      '{"__proto__":{"a":1},"messages":[{"role":"user","__proto__":{"b":2},"content":[{"type":"text","text":"hi","__proto__":{"c":3}}]},' +
        '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","__proto__":{"d":4},"function":{"name":"f","arguments":"{}","__proto__":{"e":5}}}]},' +
        '{"role":"tool","tool_call_id":"c1","content":"ok"}]}',
    ) as object;
    const { encoded } = roundTrip(request);

    expect(JSON.stringify(encoded.value).match(/__proto__/g)).toHaveLength(5);
  });

  describe('reused tool call ids', () => {
    const id = 'functions.list_dir:0';
    const turn = (path: string) => [
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'list_dir', arguments: `{"path":"${path}"}` } }] },
      { role: 'tool', tool_call_id: id, content: `${path}/index.ts` },
    ];
    const request = { messages: [{ role: 'user', content: 'Map the repo.' }, ...turn('src'), ...turn('test'), ...turn('docs')] };
    const callIds = (history: readonly HistoryEntry[]) =>
      history.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : block.type === 'tool_response' ? [block.callId] : [])));

    it('OA-110: should give each call reusing an earlier call\'s id (and its result) an id of its own, and write the recorded id back', () => {
      const { conversation } = roundTrip(request);

      expect(callIds(conversation.history)).toEqual([id, id, `${id}_2`, `${id}_2`, `${id}_3`, `${id}_3`]);
      expect(findToolPairingProblems(conversation.history)).toEqual([]);
    });

    it('OA-111: should write a result with the id its call was written with, even when it was rebuilt without its metadata', () => {
      const { history } = openAIChatCodec.decode(request).conversation;
      // What a strategy does when it replaces an old result with a shorter one.
      const rebuilt = history.map((entry) =>
        entry.speaker !== 'tool' ? entry : { speaker: 'tool' as const, blocks: entry.blocks.map((block) => (block.type === 'tool_response' ? { type: 'tool_response' as const, callId: block.callId, toolName: block.toolName, result: '[listing omitted]' } : block)) },
      );
      const { value } = openAIChatCodec.encode({ history: rebuilt });

      expect(value.messages.flatMap((message) => ('tool_call_id' in message ? [message.tool_call_id] : []))).toEqual([id, id, id]);
      expect(validateOpenAIRequest(value).filter((issue) => issue.rule !== 'duplicate-tool-call-id')).toEqual([]);
    });

    it('OA-112: should not give a legacy function_call (or an unanswered function message) an id a recorded tool call uses', () => {
      const legacy = (name: string) => [
        { role: 'assistant', content: null, function_call: { name, arguments: '{}' } },
        { role: 'function', name, content: `${name} done` },
      ];
      const recorded = (callId: string) => [
        { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name: 'run', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: callId, content: 'ran' },
      ];
      // Made up for the legacy blocks: function_call_1, function_call_7 (message indexes) and function_result_9.
      const mixed = {
        messages: [
          { role: 'user', content: 'go' },
          ...legacy('first'),
          ...recorded('function_call_1'),
          ...recorded('function_call_7'),
          ...legacy('second'),
          { role: 'function', name: 'third', content: 'answers nothing' },
          ...recorded('function_result_9'),
        ],
      };
      const { conversation } = roundTrip(mixed);
      const { history } = conversation;

      const calls = history.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : [])));
      expect(calls).toEqual(['function_call_1', 'function_call_1_2', 'function_call_7', 'function_call_7_2', 'function_result_9_2']);
      expect(findToolPairingProblems(history).map((problem) => problem.kind)).toEqual(['orphan-response']);
      // Every call id is the history's own: an agent loop adds every entry but the orphan answer.
      const service = new HistoryService({ tokenCounter: createTokenCounter({ specificationVersion: 'v1', name: 'characters', countTokens: (text) => text.length }) });
      for (const entry of history.filter((_, index) => index !== 9)) service.add(entry);
      expect(service.getAll()).toHaveLength(history.length - 1);
    });
  });

  describe('encode (entries from other formats)', () => {
    it('OA-109: should repair lone surrogates with U+FFFD and say how many strings and where', () => {
      const { value, warnings } = encodeHistory([
        user('cut \uD83D'),
        { speaker: 'ai', blocks: [{ type: 'text', text: 'ok \uD83D\uDE00' }, call('a')] },
        { speaker: 'tool', blocks: [response('a', '\uDE00 tail')] },
      ]);
      expect(value.messages[0]?.content).toBe('cut \uFFFD');
      expect(JSON.stringify(value.messages[1])).toContain('ok \uD83D\uDE00');
      expect(value.messages[2]?.content).toBe('\uFFFD tail');
      expect(warnings).toEqual([expect.objectContaining({ type: 'lossy', path: 'messages[0].content' })]);
      expect(warnings[0]?.message).toContain('2 strings');
      expect(warnings[0]?.message).toContain('messages[2].content');
      expect(validateOpenAIRequest(value)).toEqual([]);
    });

    it('OA-101: should drop thinking with a lossy warning, and an entry left with nothing', () => {
      const { value, warnings } = encodeHistory([
        user('a'),
        { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'hmm', signature: 'sig' }] },
        {
          speaker: 'ai',
          blocks: [
            { type: 'thinking', thought: 'so' },
            { type: 'text', text: 'Done.' },
          ],
        },
      ]);
      expect(value.messages).toEqual([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'Done.' },
      ]);
      expect(warnings.map((warning) => [warning.type, warning.path])).toEqual([
        ['lossy', 'history[1].blocks[0]'],
        ['lossy', 'history[2].blocks[0]'],
      ]);
    });

    it('OA-102: should write consecutive ai entries as one assistant message followed by one tool message per result', () => {
      const { value } = encodeHistory([
        user('read both'),
        { speaker: 'ai', blocks: [{ type: 'text', text: 'Reading.' }] },
        { speaker: 'ai', blocks: [call('a')] },
        { speaker: 'ai', blocks: [call('b')] },
        { speaker: 'tool', blocks: [response('a', 'A'), response('b', 'B')] },
      ]);
      expect(value.messages.slice(1)).toEqual([
        {
          role: 'assistant',
          content: 'Reading.',
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
            { id: 'b', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.ts"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'a', content: 'A' },
        { role: 'tool', tool_call_id: 'b', content: 'B' },
      ]);
      expect(validateOpenAIRequest(value)).toEqual([]);
    });

    it('OA-103: should move text next to tool results into a user message after the tool messages', () => {
      const { value } = encodeHistory([
        user('go'),
        { speaker: 'ai', blocks: [call('a'), call('b')] },
        { speaker: 'tool', blocks: [response('a', 'A'), { type: 'text', text: 'note' }] },
        { speaker: 'tool', blocks: [response('b', 'B')] },
      ]);
      expect(value.messages.slice(2)).toEqual([
        { role: 'tool', tool_call_id: 'a', content: 'A' },
        { role: 'tool', tool_call_id: 'b', content: 'B' },
        { role: 'user', content: 'note' },
      ]);
      expect(validateOpenAIRequest(value)).toEqual([]);
    });

    it('OA-104: should write tool results OpenAI cannot hold as text, with warnings', () => {
      const { value, warnings } = encodeHistory([
        user('go'),
        { speaker: 'ai', blocks: [call('a'), call('b'), call('c'), call('d')] },
        {
          speaker: 'tool',
          blocks: [
            { ...response('a', { lines: 3 }), isError: true },
            response('b', [
              { type: 'text', text: 'B', cache_control: { type: 'ephemeral' } },
              { type: 'image', source: {} },
            ]),
            response('c', null),
            response('d', [{ type: 'text', text: 'D' }]),
          ],
        },
      ]);
      expect(value.messages.slice(2).map((message) => message.content)).toEqual([
        '{"lines":3}',
        [{ type: 'text', text: 'B' }],
        '',
        [{ type: 'text', text: 'D' }],
      ]);
      expect(warnings.map((warning) => [warning.type, warning.path])).toEqual([
        ['lossy', 'history[2].blocks[0]'],
        ['other', 'history[2].blocks[0]'],
        ['lossy', 'history[2].blocks[1]'],
        ['other', 'history[2].blocks[2]'],
      ]);
    });

    it('OA-105: should write media as image_url, input_audio or file parts, and drop what OpenAI cannot take', () => {
      const { value, warnings } = encodeHistory([
        {
          speaker: 'human',
          blocks: [
            { type: 'media', mediaType: 'image/png', data: 'iVBO' },
            { type: 'media', mediaType: 'audio/wav', data: 'UklG' },
            { type: 'media', mediaType: 'application/pdf', data: 'JVBE', filename: 'a.pdf' },
            { type: 'media', mediaType: 'application/pdf', url: 'https://x.test/a.pdf' },
          ],
        },
      ]);
      expect(value.messages[0]?.content).toEqual([
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } },
        { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
      ]);
      expect(warnings).toEqual([expect.objectContaining({ type: 'lossy', path: 'history[0].blocks[3]' })]);
    });

    it("OA-106: should warn once per dropped key of another provider's metadata, skipping layout markers", () => {
      const { warnings } = encodeHistory([
        {
          speaker: 'human',
          blocks: [
            { type: 'text', text: 'x', providerMetadata: { anthropic: { cache_control: { type: 'ephemeral' } } } },
          ],
          metadata: { providerMetadata: { anthropic: { layout: { contentArray: true } } } },
        },
      ]);
      expect(warnings).toEqual([
        {
          type: 'lossy',
          message: 'anthropic.cache_control (type) on 1 block has no openai-chat equivalent and was dropped',
          path: 'history[0].blocks[0]',
        },
      ]);
    });

    it('OA-107: should write each system block of another format as its own system message', () => {
      const { value } = encodeHistory([user('go')], {
        system: [
          { type: 'text', text: 'A' },
          { type: 'text', text: 'B' },
        ],
      });
      expect(value.messages).toEqual([
        { role: 'system', content: 'A' },
        { role: 'system', content: 'B' },
        { role: 'user', content: 'go' },
      ]);
    });

    it('OA-108: should write a structured tool result without text parts as JSON text instead of dropping it', () => {
      const result = [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'ok' } } }];
      const { value, warnings } = encodeHistory([
        user('run it'),
        { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'c1', name: 'run_shell_command', parameters: { command: 'ls' } }] },
        { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'c1', toolName: 'run_shell_command', result }] },
      ]);
      expect(value.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: JSON.stringify(result) });
      expect(warnings).toContainEqual(expect.objectContaining({ message: 'the tool result has no text parts; it was written as JSON text' }));
    });
  });
});
