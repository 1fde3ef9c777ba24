import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAIMessageSchema } from './openai-chat-request-schema.js';
import { validateOpenAIRequest } from './validate-openai-request.js';

const toolCall = (id: string) => ({ id, type: 'function', function: { name: 'read_file', arguments: '{}' } });
const callMessage = (...ids: string[]) => ({ role: 'assistant', content: null, tool_calls: ids.map(toolCall) });
const toolMessage = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'ok' });

function request(messages: unknown[], rest: object = {}) {
  return {
    messages,
    tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } }],
    ...rest,
  };
}

/** The rule and path of each problem. */
function problemsOf(value: unknown) {
  return validateOpenAIRequest(value).map(({ rule, path }) => ({ rule, path }));
}

describe('validateOpenAIRequest', () => {
  it('should accept a valid tool round', () => {
    expect(
      validateOpenAIRequest(
        request([
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'read' },
          callMessage('a', 'b'),
          toolMessage('a'),
          toolMessage('b'),
        ]),
      ),
    ).toEqual([]);
  });

  it('should report input that is not a request as schema problems', () => {
    expect(problemsOf({ messages: [{ role: 'robot', content: 'x' }] })).toEqual([
      { rule: 'schema', path: 'messages[0].role' },
    ]);
  });

  it('should report fields the API does not accept, such as a trajectory thought', () => {
    expect(problemsOf(request([{ role: 'user', content: 'x', agent: 'main' }]))).toEqual([
      { rule: 'extra-field', path: 'messages[0].agent' },
    ]);
    expect(problemsOf(request([{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: {} }] }]))).toEqual([
      { rule: 'extra-field', path: 'messages[0].content[0].cache_control' },
    ]);
  });

  it('should require at least one message', () => {
    expect(problemsOf(request([]))).toEqual([{ rule: 'empty-messages', path: 'messages' }]);
  });

  it('should report a tool message without tool_call_id', () => {
    expect(problemsOf(request([callMessage('a'), { role: 'tool', content: 'ok', tool_call_ids: ['a'] }]))).toEqual([
      { rule: 'extra-field', path: 'messages[1].tool_call_ids' },
      { rule: 'missing-tool-call-id', path: 'messages[1].tool_call_id' },
      { rule: 'unanswered-tool-call', path: 'messages[0].tool_calls[0]' },
    ]);
  });

  it('should report a tool message that answers no call of the assistant message before its run', () => {
    expect(problemsOf(request([{ role: 'user', content: 'x' }, toolMessage('a')]))).toEqual([
      { rule: 'orphan-tool-message', path: 'messages[1].tool_call_id' },
    ]);
    expect(
      problemsOf(request([callMessage('a'), toolMessage('a'), { role: 'user', content: 'x' }, toolMessage('a')])),
    ).toEqual([{ rule: 'orphan-tool-message', path: 'messages[3].tool_call_id' }]);
  });

  it('should report a tool call answered twice, or not at all before the next message', () => {
    expect(problemsOf(request([callMessage('a'), toolMessage('a'), toolMessage('a')]))).toEqual([
      { rule: 'duplicate-tool-message', path: 'messages[2].tool_call_id' },
    ]);
    expect(problemsOf(request([callMessage('a'), callMessage('b'), toolMessage('a'), toolMessage('b')]))).toEqual([
      { rule: 'unanswered-tool-call', path: 'messages[0].tool_calls[0]' },
      { rule: 'orphan-tool-message', path: 'messages[2].tool_call_id' },
    ]);
  });

  it('should report tool call ids used twice', () => {
    expect(problemsOf(request([callMessage('a'), toolMessage('a'), callMessage('a'), toolMessage('a')]))).toEqual([
      { rule: 'duplicate-tool-call-id', path: 'messages[2].tool_calls[0].id' },
    ]);
  });

  it('should report an assistant message with neither content nor calls', () => {
    expect(
      problemsOf(
        request([
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null },
        ]),
      ),
    ).toEqual([{ rule: 'empty-assistant', path: 'messages[1].content' }]);
  });

  it('should report empty content arrays and parts a role cannot hold', () => {
    expect(
      problemsOf(
        request([
          { role: 'user', content: [] },
          { role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] },
          {
            role: 'tool',
            tool_call_id: 'a',
            content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }],
          },
        ]),
      ),
    ).toEqual([
      { rule: 'empty-content', path: 'messages[0].content' },
      { rule: 'part-not-allowed', path: 'messages[1].content[0].type' },
      { rule: 'part-not-allowed', path: 'messages[2].content[0].type' },
      { rule: 'orphan-tool-message', path: 'messages[2].tool_call_id' },
    ]);
  });

  it('should report audio formats and image URLs the API does not read', () => {
    expect(
      problemsOf(
        request([
          {
            role: 'user',
            content: [
              { type: 'input_audio', input_audio: { data: 'x', format: 'ogg' } },
              { type: 'image_url', image_url: { url: 'ftp://x.test/a.png' } },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } },
            ],
          },
        ]),
      ),
    ).toEqual([
      { rule: 'audio-format', path: 'messages[0].content[0].input_audio.format' },
      { rule: 'image-url', path: 'messages[0].content[1].image_url.url' },
    ]);
  });

  it('should report tool names the API rejects and duplicates', () => {
    const tools = [
      { type: 'function', function: { name: 'read file' } },
      { type: 'function', function: { name: 'grep' } },
      { type: 'custom', custom: { name: 'grep' } },
    ];
    expect(problemsOf(request([{ role: 'user', content: 'x' }], { tools }))).toEqual([
      { rule: 'tool-name-format', path: 'tools[0].function.name' },
      { rule: 'duplicate-tool-name', path: 'tools[2].custom.name' },
    ]);
  });

  describe('lone-surrogate', () => {
    const loneHigh = 'cut \uD83D';
    const loneLow = '\uDE00 cut';

    it('should report a lone high or low surrogate in message text with its path', () => {
      expect(problemsOf(request([{ role: 'user', content: loneHigh }]))).toEqual([
        { rule: 'lone-surrogate', path: 'messages[0].content' },
      ]);
      expect(problemsOf(request([{ role: 'user', content: [{ type: 'text', text: loneLow }] }]))).toEqual([
        { rule: 'lone-surrogate', path: 'messages[0].content[0].text' },
      ]);
    });

    it('should report a lone surrogate in a tool result, tool call arguments and a tool definition', () => {
      const call = { id: 'a', type: 'function', function: { name: 'read_file', arguments: `{"path":"${loneHigh}"}` } };
      const tools = [{ type: 'function', function: { name: 'read_file', description: loneLow, parameters: { type: 'object' } } }];
      expect(
        problemsOf(
          request(
            [
              { role: 'user', content: 'read' },
              { role: 'assistant', content: null, tool_calls: [call] },
              { role: 'tool', tool_call_id: 'a', content: loneLow },
            ],
            { tools },
          ),
        ),
      ).toEqual([
        { rule: 'lone-surrogate', path: 'messages[1].tool_calls[0].function.arguments' },
        { rule: 'lone-surrogate', path: 'messages[2].content' },
        { rule: 'lone-surrogate', path: 'tools[0].function.description' },
      ]);
    });

    it('should accept a proper surrogate pair (an emoji)', () => {
      expect(problemsOf(request([{ role: 'user', content: 'ok \uD83D\uDE00' }]))).toEqual([]);
    });

    it('should skip the rule, and only that one, when asked to (for a request known to hold none)', () => {
      const broken = request([{ role: 'user', content: loneHigh }, { role: 'tool', tool_call_id: 'nobody', content: 'ok' }]);
      expect(problemsOf(broken).map(({ rule }) => rule)).toEqual(['orphan-tool-message', 'lone-surrogate']);
      expect(validateOpenAIRequest(broken, { loneSurrogates: false }).map(({ rule }) => rule)).toEqual(['orphan-tool-message']);
    });
  });

  describe('messages the caller vouches for (isSchemaValidMessage)', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });
    const truthful = (message: unknown) => openAIMessageSchema.safeParse(message).success;
    const round = [{ role: 'user', content: 'read' }, callMessage('a'), toolMessage('a')];

    it('should parse only the messages it is not told match the schema, and still apply every other rule to all', () => {
      const parse = vi.spyOn(openAIMessageSchema, 'safeParse');
      const problems = validateOpenAIRequest(request([...round, toolMessage('a')]), { isSchemaValidMessage: (_message, index) => index > 0 });
      expect(parse.mock.calls.map(([message]) => message)).toEqual([round[0]]);
      // The rules read the vouched messages too: the last one answers a call already answered.
      expect(problems.map(({ rule }) => rule)).toEqual(['duplicate-tool-message']);
    });

    it('should report exactly what the full parse reports when a message it reads, or the request around them, fails', () => {
      const cases = [
        request([...round, { role: 'robot', content: 'x' }]),
        request([{ role: 'user', content: 7 }, ...round.slice(1)], { tools: 'none' }),
        { messages: 'none' },
        'not a request',
      ];
      for (const value of cases) {
        expect(validateOpenAIRequest(value, { isSchemaValidMessage: truthful })).toEqual(validateOpenAIRequest(value));
        expect(validateOpenAIRequest(value, { isSchemaValidMessage: () => false })).toEqual(validateOpenAIRequest(value));
      }
    });
  });
});
