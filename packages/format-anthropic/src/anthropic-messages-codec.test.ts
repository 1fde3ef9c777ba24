import {
  InvalidFormatError,
  findToolPairingProblems,
  type Conversation,
  type HistoryEntry,
  type JsonValue,
} from '@ctx/core';
import { deepFreeze } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesCodec } from './anthropic-messages-codec.js';
import { validateAnthropicRequest } from './validate-anthropic-request.js';

/** Decodes a frozen copy of `input` (so writing to it would throw) and checks the exact round trip. */
function roundTrip(input: object) {
  const frozen = deepFreeze(structuredClone(input));
  const decoded = anthropicMessagesCodec.decode(frozen);
  const encoded = anthropicMessagesCodec.encode(decoded.conversation);
  expect(encoded.value).toStrictEqual(input);
  return { ...decoded, encoded };
}

function issuesOf(input: unknown) {
  try {
    anthropicMessagesCodec.decode(input);
  } catch (error) {
    if (InvalidFormatError.isInstance(error)) return error.issues;
    throw error;
  }
  throw new Error('Expected an InvalidFormatError');
}

const user = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const ai = (text: string): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'text', text }] });
const call = (id: string, parameters: JsonValue = { path: 'a.ts' }) =>
  ({ type: 'tool_call', id, name: 'read_file', parameters } as const);
const response = (callId: string, result: string) =>
  ({ type: 'tool_response', callId, toolName: 'read_file', result } as const);

function encodeHistory(history: readonly HistoryEntry[], rest: Partial<Conversation> = {}) {
  return anthropicMessagesCodec.encode({ history, ...rest });
}

describe('anthropicMessagesCodec', () => {
  it('should identify itself as the v1 anthropic-messages codec', () => {
    expect(anthropicMessagesCodec.specificationVersion).toBe('v1');
    expect(anthropicMessagesCodec.format).toBe('anthropic-messages');
  });

  describe('decode', () => {
    it('AN-001: should turn a string user message into a human entry with one text block, and back into a string', () => {
      const { conversation, encoded } = roundTrip({ messages: [{ role: 'user', content: 'Fix the failing test' }] });
      expect(conversation.history).toEqual([user('Fix the failing test')]);
      expect(encoded.value.messages[0]?.content).toBe('Fix the failing test');
    });

    it('AN-002: should keep a one-block array as an array', () => {
      const { conversation } = roundTrip({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
      expect(conversation.history[0]?.blocks).toEqual([{ type: 'text', text: 'hi' }]);
    });

    it('AN-003: should map an assistant message to one ai entry with thinking, text and tool calls', () => {
      const signature = 'EsMCCkYICxgCKkDuNR00D0SP+/==';
      const { conversation } = roundTrip({
        messages: [
          { role: 'user', content: 'Read a.ts' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'I should read it', signature },
              { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
              { type: 'text', text: 'Reading.' },
              { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
            ],
          },
        ],
      });
      expect(conversation.history[1]).toEqual({
        speaker: 'ai',
        blocks: [
          { type: 'thinking', thought: 'I should read it', signature },
          { type: 'thinking', thought: 'EmwKAhgBEgy3va3pzix/LafPsn4a', redacted: true },
          { type: 'text', text: 'Reading.' },
          { type: 'tool_call', id: 'toolu_1', name: 'read_file', parameters: { path: 'a.ts' } },
        ],
      });
    });

    it('AN-004: should split tool results into a tool entry before a human entry, named after their tool_use', () => {
      const { conversation } = roundTrip({
        messages: [
          { role: 'user', content: 'Read both' },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
              { type: 'tool_use', id: 'toolu_2', name: 'grep', input: { pattern: 'x' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', content: 'export {}' },
              {
                type: 'tool_result',
                tool_use_id: 'toolu_2',
                content: [{ type: 'text', text: 'no match' }],
                is_error: true,
              },
              { type: 'text', text: 'Now fix it' },
            ],
          },
        ],
      });
      expect(conversation.history.slice(2)).toEqual([
        {
          speaker: 'tool',
          blocks: [
            { type: 'tool_response', callId: 'toolu_1', toolName: 'read_file', result: 'export {}' },
            {
              type: 'tool_response',
              callId: 'toolu_2',
              toolName: 'grep',
              result: [{ type: 'text', text: 'no match' }],
              isError: true,
            },
          ],
        },
        user('Now fix it'),
      ]);
      expect(findToolPairingProblems(conversation.history)).toEqual([]);
    });

    it('AN-005: should put interleaved tool results and text back in their original order', () => {
      const { conversation } = roundTrip({
        messages: [
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'a', name: 'read_file', input: {} },
              { type: 'tool_use', id: 'b', name: 'read_file', input: {} },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'first' },
              { type: 'tool_result', tool_use_id: 'a', content: 'A' },
              { type: 'text', text: 'second' },
              { type: 'tool_result', tool_use_id: 'b', content: 'B' },
            ],
          },
        ],
      });
      expect(conversation.history.map((entry) => entry.speaker)).toEqual(['ai', 'tool', 'human']);
    });

    it('AN-006: should keep a tool_result without content as a null result and leave it out again', () => {
      const { conversation } = roundTrip({
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'touch', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a' }] },
        ],
      });
      expect(conversation.history[1]?.blocks[0]).toMatchObject({ type: 'tool_response', result: null });
    });

    it('AN-007: should keep cache_control and citations in providerMetadata.anthropic', () => {
      const citation = {
        type: 'char_location',
        cited_text: 'x',
        document_index: 0,
        document_title: null,
        start_char_index: 0,
        end_char_index: 1,
      };
      const { conversation } = roundTrip({
        messages: [
          {
            role: 'user',
            content: [{ type: 'text', text: 'cached', cache_control: { type: 'ephemeral', ttl: '1h' } }],
          },
          { role: 'assistant', content: [{ type: 'text', text: 'cited', citations: [citation] }] },
        ],
      });
      expect(conversation.history[0]?.blocks[0]?.providerMetadata).toEqual({
        anthropic: { cache_control: { type: 'ephemeral', ttl: '1h' } },
      });
      expect(conversation.history[1]?.blocks[0]?.providerMetadata).toEqual({ anthropic: { citations: [citation] } });
    });

    it('AN-008: should map base64 and URL images to media blocks', () => {
      const { conversation } = roundTrip({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg?size=2' } },
            ],
          },
        ],
      });
      expect(conversation.history[0]?.blocks).toEqual([
        { type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'media', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg?size=2' },
      ]);
    });

    it('AN-009: should map PDF documents to media and plain-text documents to text', () => {
      const { conversation } = roundTrip({
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'document',
                source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
                title: 'spec',
              },
              { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'The grass is green.' } },
            ],
          },
        ],
      });
      expect(conversation.history[0]?.blocks).toMatchObject([
        {
          type: 'media',
          mediaType: 'application/pdf',
          data: 'JVBERi0=',
          providerMetadata: { anthropic: { title: 'spec' } },
        },
        { type: 'text', text: 'The grass is green.' },
      ]);
    });

    it('AN-010: should keep server-tool blocks opaque in place with an unsupported warning', () => {
      const { conversation, warnings } = roundTrip({
        messages: [
          { role: 'user', content: 'Search the web' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Searching.' },
              { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'ctx' } },
              {
                type: 'web_search_tool_result',
                tool_use_id: 'srvtoolu_1',
                content: [
                  { type: 'web_search_result', url: 'https://example.com', title: 'Example', encrypted_content: 'x' },
                ],
              },
              { type: 'text', text: 'Found it.' },
            ],
          },
        ],
      });
      expect(conversation.history[1]?.blocks).toEqual([
        { type: 'text', text: 'Searching.' },
        { type: 'text', text: 'Found it.' },
      ]);
      expect(warnings).toEqual([
        expect.objectContaining({ type: 'unsupported', path: 'messages[1].content[1]' }),
        expect.objectContaining({ type: 'unsupported', path: 'messages[1].content[2]' }),
      ]);
    });

    it('AN-011: should keep a block in the wrong role opaque with a malformed warning', () => {
      const { conversation, warnings } = roundTrip({
        messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'x', name: 'y', input: {} }] }],
      });
      expect(conversation.history).toHaveLength(1);
      expect(conversation.history[0]?.blocks).toEqual([]);
      expect(warnings[0]).toMatchObject({ type: 'malformed', path: 'messages[0].content[0]' });
    });

    it('AN-012: should map system to conversation.system, remembering string versus blocks', () => {
      expect(roundTrip({ system: 'Be brief.', messages: [] }).conversation.system).toEqual([
        { type: 'text', text: 'Be brief.' },
      ]);
      roundTrip({ system: [{ type: 'text', text: 'Be brief.' }], messages: [] });
      const { conversation } = roundTrip({
        system: [
          { type: 'text', text: 'You are Claude Code.' },
          { type: 'text', text: 'Project rules…', cache_control: { type: 'ephemeral' } },
        ],
        messages: [],
      });
      expect(conversation.system?.[1]?.providerMetadata).toEqual({
        anthropic: { cache_control: { type: 'ephemeral' } },
      });
    });

    it('AN-013: should map tools to conversation.tools, input_schema to inputSchema, server tools kept', () => {
      const inputSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
      const { conversation } = roundTrip({
        messages: [],
        tools: [
          {
            name: 'read_file',
            description: 'Reads a file',
            input_schema: inputSchema,
            cache_control: { type: 'ephemeral' },
          },
          { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
        ],
      });
      expect(conversation.tools).toEqual([
        {
          name: 'read_file',
          description: 'Reads a file',
          inputSchema,
          providerMetadata: { anthropic: { cache_control: { type: 'ephemeral' } } },
        },
        { name: 'web_search', providerMetadata: { anthropic: { type: 'web_search_20250305', max_uses: 5 } } },
      ]);
    });

    it('AN-014: should read id, model and usage of a response message into the entry metadata and keep the rest', () => {
      const { conversation } = roundTrip({
        messages: [
          {
            id: 'msg_01',
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-20250514',
            content: [{ type: 'text', text: 'Done.' }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: {
              input_tokens: 10,
              output_tokens: 3,
              cache_read_input_tokens: 5,
              cache_creation_input_tokens: null,
            },
          },
        ],
      });
      expect(conversation.history[0]?.metadata).toMatchObject({
        id: 'msg_01',
        model: 'claude-sonnet-4-20250514',
        usage: { inputTokens: 10, outputTokens: 3, cacheReadTokens: 5 },
      });
    });

    it('AN-015: should keep other request parameters and consecutive same-role messages', () => {
      const { conversation } = roundTrip({
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        messages: [
          { role: 'user', content: 'one' },
          { role: 'user', content: 'two' },
        ],
      });
      expect(conversation.history).toHaveLength(2);
      expect(conversation.providerMetadata).toEqual({
        anthropic: { request: { model: 'claude-sonnet-4-5', max_tokens: 1024 } },
      });
    });

    it('AN-016: should keep blank text and trailing whitespace that came from Anthropic', () => {
      roundTrip({
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: '\n\n' },
              { type: 'text', text: 'Sure. ' },
            ],
          },
        ],
      });
      roundTrip({ messages: [{ role: 'user', content: '' }] });
    });

    it('AN-017: should reject input that is not Anthropic Messages, naming the paths', () => {
      expect(
        issuesOf({
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'read_file', input: {} }] },
            { role: 'user', content: [{ type: 'tool_result', content: 'x' }] },
            { role: 'tool', content: 'x' },
          ],
        }).map((issue) => issue.path),
      ).toEqual(['messages[2].content[0].tool_use_id', 'messages[3].role']);
      expect(
        issuesOf({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64' } }] }] }),
      ).toEqual([
        expect.objectContaining({ path: 'messages[0].content[0].source.media_type' }),
        expect.objectContaining({ path: 'messages[0].content[0].source.data' }),
      ]);
      expect(issuesOf([]).map((issue) => issue.path)).toEqual(['']);
      expect(issuesOf({ system: 3, messages: [] }).map((issue) => issue.path)).toEqual(['system']);
    });

    it('AN-018: should leave a tool_result toolName empty, with a warning, when its tool_use is not in the input', () => {
      const { conversation, warnings } = roundTrip({
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'ok' }] }],
      });
      expect(conversation.history[0]?.blocks[0]).toMatchObject({ toolName: '' });
      expect(warnings).toEqual([expect.objectContaining({ type: 'other', path: 'messages[0].content[0]' })]);
    });
  });

  describe('reused tool_use ids', () => {
    const turn = (path: string) => [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_ls', name: 'ls', input: { path } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_ls', content: `${path}/index.ts` }] },
    ];
    const request = { model: 'kimi-k3', max_tokens: 64, messages: [{ role: 'user', content: 'Map the repo.' }, ...turn('src'), ...turn('test')] };

    it('AN-113: should give a tool_use reusing an earlier id (and its tool_result) an id of its own, write the recorded id back and say so', () => {
      const { conversation, warnings } = roundTrip(request);
      const ids = conversation.history.flatMap((entry) =>
        entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : block.type === 'tool_response' ? [block.callId] : [])),
      );

      expect(ids).toEqual(['toolu_ls', 'toolu_ls', 'toolu_ls_2', 'toolu_ls_2']);
      expect(findToolPairingProblems(conversation.history)).toEqual([]);
      expect(warnings).toEqual([expect.objectContaining({ type: 'malformed', path: 'messages[3].content[0]' })]);
    });

    it('AN-114: should write a tool_result with the id its tool_use was written with, even when it was rebuilt without its metadata', () => {
      const { history } = anthropicMessagesCodec.decode(request).conversation;
      const rebuilt = history.map((entry) => ({
        ...entry,
        blocks: entry.blocks.map((block) => (block.type === 'tool_response' ? { type: 'tool_response' as const, callId: block.callId, toolName: block.toolName, result: '[omitted]' } : block)),
      }));
      const { value } = anthropicMessagesCodec.encode({ history: rebuilt });
      const resultIds = value.messages.flatMap((message) =>
        typeof message.content === 'string' ? [] : message.content.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : [])),
      );

      expect(resultIds).toEqual(['toolu_ls', 'toolu_ls']);
    });
  });

  it('AN-115: should give back a field named __proto__ at any level of the request, as JSON holds it', () => {
    // JSON.parse keeps `__proto__` as an ordinary field; assigning it while copying would set a prototype instead.
    const request = JSON.parse(
      '{"model":"m","max_tokens":8,"__proto__":{"a":1},"messages":[{"role":"user","__proto__":{"b":2},"content":[{"type":"text","text":"hi","__proto__":{"c":3}}]}]}',
    ) as object;
    const { encoded } = roundTrip(request);

    expect(JSON.parse(JSON.stringify(encoded.value))).toEqual(JSON.parse(JSON.stringify(request)));
    expect(JSON.stringify(encoded.value).match(/__proto__/g)).toHaveLength(3);
  });

  describe('encode (entries from other formats)', () => {
    it('AN-112: should repair lone surrogates with U+FFFD and say how many strings and where', () => {
      const { value, warnings } = encodeHistory([
        user('cut \uD83D'),
        { speaker: 'ai', blocks: [{ type: 'text', text: 'ok \uD83D\uDE00' }, call('toolu_1')] },
        { speaker: 'tool', blocks: [response('toolu_1', '\uDE00 tail')] },
      ]);
      expect(value.messages[0]?.content).toBe('cut \uFFFD');
      expect(JSON.stringify(value.messages[1])).toContain('ok \uD83D\uDE00');
      expect(JSON.stringify(value.messages[2])).toContain('\uFFFD tail');
      expect(warnings).toEqual([expect.objectContaining({ type: 'lossy', path: 'messages[0].content' })]);
      expect(warnings[0]?.message).toContain('2 strings');
      expect(warnings[0]?.message).toContain('messages[2].content[0].content');
      expect(validateAnthropicRequest(value)).toEqual([]);
    });

    it('AN-101: should merge consecutive same-role entries so roles alternate', () => {
      const { value } = encodeHistory([user('a'), user('b'), ai('c'), ai('d')]);
      expect(value.messages).toEqual([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'c' },
            { type: 'text', text: 'd' },
          ],
        },
      ]);
    });

    it('AN-102: should put every tool result of a turn into the next user message, before its text', () => {
      const history: HistoryEntry[] = [
        user('read both'),
        { speaker: 'ai', blocks: [call('a'), call('b')] },
        { speaker: 'tool', blocks: [response('a', 'A')] },
        { speaker: 'tool', blocks: [response('b', 'B')] },
        user('thanks'),
      ];
      const { value } = encodeHistory(history);
      expect(value.messages[2]).toEqual({
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: 'A' },
          { type: 'tool_result', tool_use_id: 'b', content: 'B' },
          { type: 'text', text: 'thanks' },
        ],
      });
      expect(validateAnthropicRequest(value)).toEqual([]);
    });

    it('AN-103: should drop blank text blocks from other formats when the message keeps other content', () => {
      const { value } = encodeHistory([
        user('go'),
        { speaker: 'ai', blocks: [{ type: 'text', text: '' }, call('a')] },
        { speaker: 'tool', blocks: [response('a', 'ok')] },
      ]);
      expect(value.messages[1]?.content).toEqual([
        { type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'a.ts' } },
      ]);
    });

    it('AN-104: should drop thinking without a signature with a lossy warning, and the entry if nothing is left', () => {
      const { value, warnings } = encodeHistory([
        user('a'),
        { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'hmm' }] },
        user('b'),
      ]);
      expect(value.messages).toEqual([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ]);
      expect(warnings).toEqual([expect.objectContaining({ type: 'lossy', path: 'history[1].blocks[0]' })]);
    });

    it('AN-105: should wrap parameters that are not an object, with a lossy warning', () => {
      const { value, warnings } = encodeHistory([
        user('go'),
        { speaker: 'ai', blocks: [call('a', '{"path": "a.ts"')] },
        { speaker: 'tool', blocks: [response('a', 'ok')] },
      ]);
      expect(value.messages[1]?.content).toEqual([
        { type: 'tool_use', id: 'a', name: 'read_file', input: { value: '{"path": "a.ts"' } },
      ]);
      expect(warnings).toEqual([expect.objectContaining({ type: 'lossy', path: 'history[1].blocks[0]' })]);
    });

    it('AN-106: should write structured tool results as JSON text and keep text-part arrays', () => {
      const { value, warnings } = encodeHistory([
        user('go'),
        { speaker: 'ai', blocks: [call('a'), call('b')] },
        {
          speaker: 'tool',
          blocks: [
            { type: 'tool_response', callId: 'a', toolName: 'read_file', result: { lines: 3 } },
            { type: 'tool_response', callId: 'b', toolName: 'read_file', result: [{ type: 'text', text: 'B' }] },
          ],
        },
      ]);
      expect(value.messages[2]?.content).toEqual([
        { type: 'tool_result', tool_use_id: 'a', content: '{"lines":3}' },
        { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'B' }] },
      ]);
      expect(warnings).toEqual([expect.objectContaining({ type: 'other', path: 'history[2].blocks[0]' })]);
    });

    it('AN-107: should write images as image blocks and PDFs as documents, and drop other attachments with a warning', () => {
      const { value, warnings } = encodeHistory([
        {
          speaker: 'human',
          blocks: [
            { type: 'media', mediaType: 'image/png', data: 'iVBO' },
            { type: 'media', mediaType: 'application/pdf', data: 'JVBE', filename: 'spec.pdf' },
            { type: 'media', mediaType: 'audio/wav', data: 'UklG' },
          ],
        },
      ]);
      expect(value.messages[0]?.content).toEqual([
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
        {
          type: 'document',
          title: 'spec.pdf',
          source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' },
        },
      ]);
      expect(warnings).toEqual([expect.objectContaining({ type: 'lossy', path: 'history[0].blocks[2]' })]);
    });

    it('AN-108: should trim trailing whitespace from a final assistant message from another format', () => {
      const { value, warnings } = encodeHistory([user('go'), ai('Sure.\n')]);
      expect(value.messages[1]?.content).toBe('Sure.');
      expect(warnings).toEqual([expect.objectContaining({ type: 'other' })]);
      expect(validateAnthropicRequest(value)).toEqual([]);
    });

    it("AN-109: should name other providers' metadata it drops once per key, with a count", () => {
      const marked = (text: string): HistoryEntry => ({
        speaker: 'human',
        blocks: [{ type: 'text', text }],
        metadata: { providerMetadata: { openai: { message: { agent: 'main', thought: 'x' } } } },
      });
      const { warnings } = encodeHistory([marked('a'), ai('b'), marked('c')]);
      expect(warnings).toEqual([
        {
          type: 'lossy',
          message: 'openai.message (agent, thought) on 2 entries has no anthropic-messages equivalent and was dropped',
          path: 'history[0]',
        },
      ]);
    });

    it('AN-110: should give a tool without an input schema an empty object schema', () => {
      const { value, warnings } = encodeHistory([user('x')], { tools: [{ name: 'ping' }] });
      expect(value.tools).toEqual([{ name: 'ping', input_schema: { type: 'object', properties: {} } }]);
      expect(warnings).toEqual([expect.objectContaining({ type: 'other', path: 'tools[0]' })]);
    });

    it('AN-111: should write one system block as a string and several as blocks', () => {
      expect(encodeHistory([], { system: [{ type: 'text', text: 'Be brief.' }] }).value.system).toBe('Be brief.');
      expect(
        encodeHistory([], {
          system: [
            { type: 'text', text: 'A' },
            { type: 'text', text: 'B' },
          ],
        }).value.system,
      ).toEqual([
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B' },
      ]);
    });
  });
});
