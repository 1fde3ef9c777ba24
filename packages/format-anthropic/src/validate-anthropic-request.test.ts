import { afterEach, describe, expect, it, vi } from 'vitest';
import { anthropicMessageSchema } from './anthropic-request-schema.js';
import { validateAnthropicRequest } from './validate-anthropic-request.js';

const readCall = { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } };
const readResult = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'export {}' };

function request(messages: unknown[], rest: object = {}) {
  return { system: 'Be brief.', messages, tools: [{ name: 'read_file', input_schema: { type: 'object' } }], ...rest };
}

const validMessages = [
  { role: 'user', content: 'Read a.ts' },
  { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, readCall] },
  { role: 'user', content: [readResult, { type: 'text', text: 'Fix it' }] },
];

/** The rule and path of each problem. */
function problemsOf(value: unknown) {
  return validateAnthropicRequest(value).map(({ rule, path }) => ({ rule, path }));
}

describe('validateAnthropicRequest', () => {
  it('should accept a valid tool round', () => {
    expect(validateAnthropicRequest(request(validMessages))).toEqual([]);
  });

  it('should report input that is not a request as schema problems', () => {
    expect(problemsOf({ messages: [{ role: 'user' }] })).toEqual([{ rule: 'schema', path: 'messages[0].content' }]);
  });

  it('should report fields the API does not accept, such as a response message id', () => {
    expect(problemsOf(request([{ role: 'user', content: 'hi', id: 'msg_1' }]))).toEqual([
      { rule: 'extra-field', path: 'messages[0].id' },
    ]);
    expect(problemsOf(request([{ role: 'user', content: [{ type: 'text', text: 'hi', index: 0 }] }]))).toEqual([
      { rule: 'extra-field', path: 'messages[0].content[0].index' },
    ]);
  });

  it('should take a block whose type is named like a property every object has as any block of an unknown type', () => {
    // The type is looked up in a table of known ones: `constructor` threw a TypeError instead of a list of problems.
    for (const type of ['constructor', 'toString', '__proto__']) {
      const named = (blockType: string) => request([{ role: 'user', content: [{ type: blockType, text: 'hi' }] }]);
      expect(problemsOf(named(type))).toEqual(problemsOf(named('bogus')));
    }
  });

  it('should require at least one message, the first from the user', () => {
    expect(problemsOf(request([]))).toEqual([{ rule: 'empty-messages', path: 'messages' }]);
    expect(problemsOf(request([{ role: 'assistant', content: 'Hello' }]))).toEqual([
      { rule: 'first-message-role', path: 'messages[0].role' },
    ]);
  });

  it('should report consecutive messages of one role', () => {
    expect(
      problemsOf(
        request([
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ]),
      ),
    ).toEqual([{ rule: 'roles-not-alternating', path: 'messages[1].role' }]);
  });

  it('should report empty content except in a final assistant message', () => {
    expect(problemsOf(request([{ role: 'user', content: [] }]))).toEqual([
      { rule: 'empty-content', path: 'messages[0].content' },
    ]);
    expect(
      problemsOf(
        request([
          { role: 'user', content: 'a' },
          { role: 'assistant', content: '' },
        ]),
      ),
    ).toEqual([]);
  });

  it('should report empty and whitespace-only text blocks', () => {
    expect(
      problemsOf(
        request([
          {
            role: 'user',
            content: [
              { type: 'text', text: ' \n' },
              { type: 'text', text: 'x' },
            ],
          },
        ]),
      ),
    ).toEqual([{ rule: 'empty-text', path: 'messages[0].content[0].text' }]);
  });

  it('should report trailing whitespace in a final assistant message', () => {
    expect(
      problemsOf(
        request([
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'The answer is ' },
        ]),
      ),
    ).toEqual([{ rule: 'trailing-whitespace', path: 'messages[1].content' }]);
  });

  it('should report blocks in a role that cannot hold them', () => {
    expect(
      problemsOf(request([{ role: 'user', content: [{ type: 'thinking', thinking: 'x', signature: 's' }] }])),
    ).toEqual([{ rule: 'block-not-allowed', path: 'messages[0].content[0].type' }]);
  });

  it('should report a tool_use without a tool_result in the next message', () => {
    expect(problemsOf(request([validMessages[0], validMessages[1], { role: 'user', content: 'never mind' }]))).toEqual([
      { rule: 'unanswered-tool-use', path: 'messages[1].content[1]' },
    ]);
  });

  it('should report a tool_result that answers nothing in the previous message', () => {
    expect(
      problemsOf(
        request([validMessages[0], { role: 'assistant', content: 'ok' }, { role: 'user', content: [readResult] }]),
      ),
    ).toEqual([{ rule: 'orphan-tool-result', path: 'messages[2].content[0].tool_use_id' }]);
  });

  it('should report a tool answered twice and a tool_result after text', () => {
    expect(
      problemsOf(
        request([
          validMessages[0],
          validMessages[1],
          { role: 'user', content: [{ type: 'text', text: 'x' }, readResult, readResult] },
        ]),
      ),
    ).toEqual([
      { rule: 'tool-result-not-first', path: 'messages[2].content[1]' },
      { rule: 'duplicate-tool-result', path: 'messages[2].content[2].tool_use_id' },
      { rule: 'tool-result-not-first', path: 'messages[2].content[2]' },
    ]);
  });

  it('should check tool pairing across consecutive messages of one role as one turn', () => {
    const secondCall = { ...readCall, id: 'toolu_2' };
    expect(
      problemsOf(
        request([
          validMessages[0],
          { role: 'assistant', content: [readCall] },
          { role: 'assistant', content: [secondCall] },
          { role: 'user', content: [readResult] },
          { role: 'user', content: [{ ...readResult, tool_use_id: 'toolu_2' }] },
        ]),
      ),
    ).toEqual([
      { rule: 'roles-not-alternating', path: 'messages[2].role' },
      { rule: 'roles-not-alternating', path: 'messages[4].role' },
    ]);
  });

  it('should report duplicate tool_use ids, malformed ids and non-object input', () => {
    expect(
      problemsOf(
        request([
          validMessages[0],
          { role: 'assistant', content: [readCall, { ...readCall, id: 'toolu 2', input: 'a.ts' }, readCall] },
          {
            role: 'user',
            content: [readResult, { ...readResult, tool_use_id: 'toolu 2' }],
          },
        ]),
      ),
    ).toEqual([
      { rule: 'tool-use-id-format', path: 'messages[1].content[1].id' },
      { rule: 'tool-use-input', path: 'messages[1].content[1].input' },
      { rule: 'duplicate-tool-use-id', path: 'messages[1].content[2].id' },
    ]);
  });

  it('should report image media types the API does not read', () => {
    expect(
      problemsOf(
        request([
          {
            role: 'user',
            content: [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'Qk0=' } }],
          },
        ]),
      ),
    ).toEqual([{ rule: 'image-media-type', path: 'messages[0].content[0].source.media_type' }]);
  });

  it('should allow four cache_control breakpoints and report the fifth', () => {
    const cached = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    expect(problemsOf(request([{ role: 'user', content: [cached, cached, cached, cached] }]))).toEqual([]);
    expect(problemsOf(request([{ role: 'user', content: [cached, cached, cached, cached, cached] }]))).toEqual([
      { rule: 'too-many-cache-breakpoints', path: 'messages[0].content[4].cache_control' },
    ]);
  });

  it('should report tool names the API rejects and duplicates', () => {
    const tools = [
      { name: 'read file', input_schema: { type: 'object' } },
      { name: 'grep', input_schema: { type: 'object' } },
      { name: 'grep', input_schema: { type: 'object' } },
      { type: 'web_search_20250305', name: 'web_search' },
    ];
    expect(problemsOf(request([{ role: 'user', content: 'hi' }], { tools }))).toEqual([
      { rule: 'tool-name-format', path: 'tools[0].name' },
      { rule: 'duplicate-tool-name', path: 'tools[2].name' },
    ]);
  });

  describe('extended thinking with tool use (rule tool-loop-thinking)', () => {
    const thinking = (text: string) => ({ type: 'thinking', thinking: text, signature: `sig-${text}` });
    const redacted = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' };
    const call = (id: string) => ({ type: 'tool_use', id, name: 'read_file', input: { path: `${id}.ts` } });
    const answer = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: `content of ${id}` });
    const earlierTurnWithThinking = [
      { role: 'user', content: 'What is in a.ts?' },
      { role: 'assistant', content: [thinking('plan'), { type: 'text', text: 'It exports nothing.' }] },
      { role: 'user', content: 'Now read b.ts' },
    ];

    it('should report a tool loop opening without thinking while an earlier turn shows thinking is on', () => {
      expect(
        problemsOf(
          request([...earlierTurnWithThinking, { role: 'assistant', content: [call('toolu_b')] }, { role: 'user', content: [answer('toolu_b')] }]),
        ),
      ).toEqual([{ rule: 'tool-loop-thinking', path: 'messages[3].content[0].type' }]);
    });

    it('should report thinking that no longer comes first in the tool loop opening', () => {
      expect(
        problemsOf(
          request([
            { role: 'user', content: 'Read b.ts' },
            { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, thinking('plan'), call('toolu_b')] },
            { role: 'user', content: [answer('toolu_b')] },
          ]),
        ),
      ).toEqual([{ rule: 'tool-loop-thinking', path: 'messages[1].content[0].type' }]);
    });

    it('should accept a tool loop that opens with its thinking or redacted thinking, later steps without it', () => {
      for (const opening of [thinking('read b'), redacted]) {
        const messages = [
          ...earlierTurnWithThinking,
          { role: 'assistant', content: [opening, call('toolu_b')] },
          { role: 'user', content: [answer('toolu_b')] },
          { role: 'assistant', content: [call('toolu_c')] },
          { role: 'user', content: [answer('toolu_c')] },
        ];
        expect(problemsOf(request(messages))).toEqual([]);
      }
    });

    it('should start a new turn at a prompt typed beside tool results (an interruption), and check its opening', () => {
      const messages = [
        { role: 'user', content: 'Read a.ts' },
        { role: 'assistant', content: [thinking('read a'), call('toolu_a')] },
        { role: 'user', content: [answer('toolu_a'), { type: 'text', text: 'Stop, read b.ts instead' }] },
        { role: 'assistant', content: [call('toolu_b')] },
        { role: 'user', content: [answer('toolu_b')] },
      ];
      expect(problemsOf(request(messages))).toEqual([{ rule: 'tool-loop-thinking', path: 'messages[3].content[0].type' }]);
    });

    it('should follow the request\'s thinking parameter when it has one', () => {
      const withoutThinking = [...validMessages.slice(0, 2), { role: 'user', content: [readResult] }];
      expect(problemsOf(request(withoutThinking, { thinking: { type: 'enabled', budget_tokens: 2048 } }))).toEqual([
        { rule: 'tool-loop-thinking', path: 'messages[1].content[0].type' },
      ]);
      const lostThinking = [...earlierTurnWithThinking, { role: 'assistant', content: [call('toolu_b')] }, { role: 'user', content: [answer('toolu_b')] }];
      expect(problemsOf(request(lostThinking, { thinking: { type: 'disabled' } }))).toEqual([]);
    });

    it('should not check a request without thinking, nor one whose last turn is not in a tool loop', () => {
      expect(problemsOf(request(validMessages.slice(0, 2).concat([{ role: 'user', content: [readResult] }])))).toEqual([]);
      expect(
        problemsOf(
          request([
            ...earlierTurnWithThinking,
            { role: 'assistant', content: [call('toolu_b')] },
            { role: 'user', content: [answer('toolu_b')] },
            { role: 'assistant', content: 'b.ts exports parse.' },
            { role: 'user', content: 'Thanks' },
          ]),
        ),
      ).toEqual([]);
    });
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

    it('should report a lone surrogate in a tool result, a tool input, the system prompt and a tool definition', () => {
      const messages = [
        { role: 'user', content: 'Read a.ts' },
        { role: 'assistant', content: [{ ...readCall, input: { path: loneHigh } }] },
        { role: 'user', content: [{ ...readResult, content: [{ type: 'text', text: loneLow }] }] },
      ];
      const tools = [{ name: 'read_file', description: loneLow, input_schema: { type: 'object' } }];
      expect(problemsOf(request(messages, { system: loneHigh, tools }))).toEqual([
        { rule: 'lone-surrogate', path: 'system' },
        { rule: 'lone-surrogate', path: 'messages[1].content[0].input.path' },
        { rule: 'lone-surrogate', path: 'messages[2].content[0].content[0].text' },
        { rule: 'lone-surrogate', path: 'tools[0].description' },
      ]);
    });

    it('should accept a proper surrogate pair (an emoji)', () => {
      expect(problemsOf(request([{ role: 'user', content: 'ok \uD83D\uDE00' }]))).toEqual([]);
    });

    it('should skip the rule, and only that one, when asked to (for a request known to hold none)', () => {
      const broken = request([{ role: 'user', content: loneHigh }, { role: 'user', content: 'again' }]);
      expect(problemsOf(broken).map(({ rule }) => rule)).toEqual(['roles-not-alternating', 'lone-surrogate']);
      expect(validateAnthropicRequest(broken, { loneSurrogates: false }).map(({ rule }) => rule)).toEqual(['roles-not-alternating']);
    });
  });

  describe('messages the caller vouches for (isSchemaValidMessage)', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });
    const truthful = (message: unknown) => anthropicMessageSchema.safeParse(message).success;

    it('should parse only the messages it is not told match the schema, and still apply every other rule to all', () => {
      const parse = vi.spyOn(anthropicMessageSchema, 'safeParse');
      const sent = request([...validMessages, { role: 'user', content: 'again' }]);
      const problems = validateAnthropicRequest(sent, { isSchemaValidMessage: (_message, index) => index > 0 });
      expect(parse.mock.calls.map(([message]) => message)).toEqual([validMessages[0]]);
      // The rules read the vouched messages too: the last two are both from the user.
      expect(problems.map(({ rule, path }) => ({ rule, path }))).toEqual([{ rule: 'roles-not-alternating', path: 'messages[3].role' }]);
    });

    it('should report exactly what the full parse reports when a message it reads, or the request around them, fails', () => {
      const cases = [
        request([...validMessages, { role: 'user' }]),
        request([{ role: 'user', content: 7 }, ...validMessages.slice(1)], { tools: 'none' }),
        request(validMessages, { system: 3 }),
        { messages: 'none' },
        'not a request',
      ];
      for (const value of cases) {
        expect(validateAnthropicRequest(value, { isSchemaValidMessage: truthful })).toEqual(validateAnthropicRequest(value));
        expect(validateAnthropicRequest(value, { isSchemaValidMessage: () => false })).toEqual(validateAnthropicRequest(value));
      }
    });
  });
});
