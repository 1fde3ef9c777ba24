import { InvalidFormatError, findToolPairingProblems, parseConversation, type Conversation } from '@ctx/core';
import { claudeCodeLikeConversation, deepFreeze, parallelSameFunctionConversation } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { aiSdkCodec } from './ai-sdk-codec.js';
import type { AiSdkModelMessage, AiSdkPrompt } from './ai-sdk-prompt.js';
import { validateAiSdkMessages } from './validate-ai-sdk-messages.js';

const roundTrip = (prompt: AiSdkPrompt) => aiSdkCodec.encode(aiSdkCodec.decode(prompt).conversation).value;
const history = (messages: AiSdkModelMessage[]) => aiSdkCodec.decode({ messages }).conversation.history;

function withoutEntryMetadata(conversation: Conversation): Conversation {
  return {
    ...conversation,
    history: conversation.history.map(({ speaker, blocks }) => ({
      speaker,
      blocks: blocks.map((block) => {
        if (block.providerMetadata === undefined) return block;
        const { providerMetadata: _dropped, ...rest } = block;
        return rest;
      }),
    })),
  };
}

describe('aiSdkCodec', () => {
  it('should be a v1 codec for ai-sdk-model-messages', () => {
    expect(aiSdkCodec.specificationVersion).toBe('v1');
    expect(aiSdkCodec.format).toBe('ai-sdk-model-messages');
  });

  it('AIS-001: should read string content as one text block and keep a one-part array an array', () => {
    const prompt: AiSdkPrompt = {
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
        { role: 'user', content: '' },
        { role: 'assistant', content: [] },
      ],
    };
    const entries = aiSdkCodec.decode(prompt).conversation.history;
    expect(entries[0]).toEqual({ speaker: 'human', blocks: [{ type: 'text', text: 'Hi' }] });
    expect(entries[1]).toEqual({
      speaker: 'ai',
      blocks: [{ type: 'text', text: 'Hello' }],
      metadata: { providerMetadata: { aiSdk: { contentArray: true } } },
    });
    expect(roundTrip(prompt)).toEqual(prompt);
  });

  it('AIS-002: should read reasoning signatures from provider options and write Anthropic ones back without metadata', () => {
    const prompt: AiSdkPrompt = {
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Plan first.', providerOptions: { anthropic: { signature: 'EqQBsig' } } },
            { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'ENCRYPTED' } } },
            { type: 'reasoning', text: 'Gemini thought', providerOptions: { google: { thoughtSignature: 'Z3NpZw==' } } },
            { type: 'reasoning', text: 'OpenAI summary' },
          ],
        },
      ],
    };
    expect(history(prompt.messages as AiSdkModelMessage[])[0]?.blocks).toEqual([
      { type: 'thinking', thought: 'Plan first.', signature: 'EqQBsig' },
      { type: 'thinking', thought: 'ENCRYPTED', redacted: true },
      {
        type: 'thinking',
        thought: 'Gemini thought',
        signature: 'Z3NpZw==',
        providerMetadata: { aiSdk: { providerOptions: { google: { thoughtSignature: 'Z3NpZw==' } } } },
      },
      { type: 'thinking', thought: 'OpenAI summary' },
    ]);
    expect(roundTrip(prompt)).toEqual(prompt);
  });

  it('AIS-003: should map error outputs to isError and remember output types a result cannot tell', () => {
    const prompt: AiSdkPrompt = {
      messages: [
        {
          role: 'assistant',
          content: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => ({ type: 'tool-call' as const, toolCallId: id, toolName: 'run', input: {} })),
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'a', toolName: 'run', output: { type: 'text', value: 'ok' } },
            { type: 'tool-result', toolCallId: 'b', toolName: 'run', output: { type: 'json', value: { rows: 1 } } },
            { type: 'tool-result', toolCallId: 'c', toolName: 'run', output: { type: 'error-text', value: 'boom' } },
            { type: 'tool-result', toolCallId: 'd', toolName: 'run', output: { type: 'error-json', value: { code: 1 } } },
            { type: 'tool-result', toolCallId: 'e', toolName: 'run', output: { type: 'json', value: 'a json string' } },
            {
              type: 'tool-result',
              toolCallId: 'f',
              toolName: 'run',
              output: { type: 'content', value: [{ type: 'text', text: 'see' }, { type: 'media', data: 'iVBORw0KGgo=', mediaType: 'image/png' }] },
            },
            { type: 'tool-result', toolCallId: 'g', toolName: 'run', output: { type: 'execution-denied' } },
          ],
        },
      ],
    };
    const results = history(prompt.messages as AiSdkModelMessage[])[1]?.blocks;
    expect(results).toMatchObject([
      { result: 'ok' },
      { result: { rows: 1 } },
      { result: 'boom', isError: true },
      { result: { code: 1 }, isError: true },
      { result: 'a json string', providerMetadata: { aiSdk: { outputType: 'json' } } },
      { result: [{ type: 'text', text: 'see' }, { type: 'media' }], providerMetadata: { aiSdk: { outputType: 'content' } } },
      { result: 'Tool execution denied.', isError: true, providerMetadata: { aiSdk: { outputType: 'execution-denied', reasonOmitted: true } } },
    ]);
    expect(results?.[0]).not.toHaveProperty('providerMetadata');
    expect(roundTrip(prompt)).toEqual(prompt);
  });

  it('AIS-004: should keep providerOptions of messages, parts, outputs and tools untouched', () => {
    const cache = { anthropic: { cacheControl: { type: 'ephemeral' } } };
    const prompt: AiSdkPrompt = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi', providerOptions: cache }], providerOptions: { openai: { user: 'u-1' } } },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'run', input: { a: 1 }, providerOptions: { google: { thoughtSignature: 'c2ln' } } }],
        },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'run', output: { type: 'text', value: 'x', providerOptions: cache }, providerOptions: cache }],
          providerOptions: cache,
        },
      ],
      tools: { run: { description: 'Run', inputSchema: { type: 'object' }, providerOptions: cache } },
    };
    const { conversation } = aiSdkCodec.decode(prompt);
    expect(conversation.history[0]?.metadata?.providerMetadata).toEqual({ aiSdk: { providerOptions: { openai: { user: 'u-1' } } } });
    expect(conversation.history[0]?.blocks[0]?.providerMetadata).toEqual({ aiSdk: { providerOptions: cache } });
    expect(roundTrip(prompt)).toEqual(prompt);
  });

  it('AIS-005: should turn provider-executed results inside assistant content into tool entries and merge them back', () => {
    const prompt: AiSdkPrompt = {
      messages: [
        { role: 'user', content: 'Search the web' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'ws', toolName: 'web_search', input: { query: 'ctx' }, providerExecuted: true },
            { type: 'tool-result', toolCallId: 'ws', toolName: 'web_search', output: { type: 'json', value: [{ url: 'https://a' }] } },
            { type: 'text', text: 'Found it.' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool-result', toolCallId: 'ws', toolName: 'web_search', output: { type: 'text', value: 'late' } }] },
      ],
    };
    const entries = aiSdkCodec.decode(prompt).conversation.history;
    expect(entries.map((entry) => entry.speaker)).toEqual(['human', 'ai', 'tool', 'ai', 'tool']);
    expect(findToolPairingProblems(entries.slice(0, 4))).toEqual([]);
    expect(roundTrip(prompt)).toEqual(prompt);
  });

  it('AIS-006: should read every kind of binary content and give each back as it was given', () => {
    const bytes = new Uint8Array([137, 80, 78, 71]);
    const prompt: AiSdkPrompt = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', image: 'iVBORw0KGgo=' },
            { type: 'image', image: 'https://example.com/cat.png', mediaType: 'image/png' },
            { type: 'image', image: new URL('https://example.com/dog.jpg') },
            { type: 'image', image: bytes, mediaType: 'image/png' },
            { type: 'file', data: bytes.buffer, mediaType: 'application/pdf', filename: 'a.pdf' },
            { type: 'file', data: 'JVBERi0=', mediaType: 'image/png' },
          ],
        },
        { role: 'assistant', content: [{ type: 'file', data: 'iVBORw0KGgo=', mediaType: 'image/png' }] },
      ],
    };
    const blocks = history(prompt.messages as AiSdkModelMessage[])[0]?.blocks;
    expect(blocks).toMatchObject([
      { mediaType: 'image/png', data: 'iVBORw0KGgo=', providerMetadata: { aiSdk: { mediaTypeOmitted: true } } },
      { mediaType: 'image/png', url: 'https://example.com/cat.png' },
      { mediaType: 'image/*', url: 'https://example.com/dog.jpg', providerMetadata: { aiSdk: { dataKind: 'URL' } } },
      { mediaType: 'image/png', data: 'iVBORw==', providerMetadata: { aiSdk: { dataKind: 'Uint8Array' } } },
      { mediaType: 'application/pdf', data: 'iVBORw==', filename: 'a.pdf', providerMetadata: { aiSdk: { dataKind: 'ArrayBuffer' } } },
      { mediaType: 'image/png', data: 'JVBERi0=', providerMetadata: { aiSdk: { partType: 'file' } } },
    ]);
    const value = roundTrip(prompt);
    expect(value).toEqual(prompt);
    const content = value.messages[0]?.content as readonly { image?: unknown; data?: unknown }[];
    expect(content[2]?.image).toBeInstanceOf(URL);
    expect(content[3]?.image).toBeInstanceOf(Uint8Array);
    expect(content[4]?.data).toBeInstanceOf(ArrayBuffer);
  });

  it('AIS-007: should read the system field and leading system messages as system blocks, later ones as human entries', () => {
    const prompt: AiSdkPrompt = {
      system: 'Be brief.',
      messages: [
        { role: 'system', content: 'Use metric units.', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
        { role: 'user', content: 'Hi' },
        { role: 'system', content: 'The user is an admin.' },
      ],
    };
    const { conversation, warnings } = aiSdkCodec.decode(prompt);
    expect(conversation.system?.map((block) => block.text)).toEqual(['Be brief.', 'Use metric units.']);
    expect(conversation.history.map((entry) => entry.speaker)).toEqual(['human', 'human']);
    expect(warnings.map((warning) => [warning.type, warning.path])).toEqual([['other', 'messages[2]']]);
    expect(roundTrip(prompt)).toEqual(prompt);
  });

  it('AIS-008: should throw InvalidFormatError naming every failing path', () => {
    const paths = (input: unknown) => {
      try {
        aiSdkCodec.decode(input);
      } catch (error) {
        if (InvalidFormatError.isInstance(error)) return error.issues.map((issue) => issue.path);
        throw error;
      }
      return [];
    };
    expect(paths({ messages: [{ role: 'developer', content: 'x' }] })).toEqual(['messages[0].role']);
    expect(paths({ messages: [{ role: 'tool', content: [{ type: 'text', text: 'x' }] }] })).toContain('messages[0].content[0].type');
    expect(paths({ messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 't', input: () => 1 }] }] })).toEqual([
      'messages[0].content[0].input',
    ]);
    expect(paths({ messages: [{ role: 'user', content: 'x', extra: true }] })).toEqual(['messages[0]']);
    expect(paths({ messages: 'hi' })).toEqual(['messages']);
  });

  it('AIS-009: should not modify its input and should return a frozen conversation sharing nothing with it', () => {
    const prompt = deepFreeze<AiSdkPrompt>({
      messages: [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: { deep: { list: [1] } } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 't', output: { type: 'json', value: { a: [1] } } }] },
      ],
    });
    const { conversation } = aiSdkCodec.decode(prompt);
    expect(Object.isFrozen(conversation.history[0]?.blocks[0])).toBe(true);
    const { value } = aiSdkCodec.encode(conversation);
    expect(value).toEqual(prompt);
    const call = (value.messages[0]?.content as readonly { input: object }[])[0];
    expect(Object.isFrozen(call?.input)).toBe(false);
  });

  it('AIS-010: should encode a Claude Code-like conversation as valid messages, warn for every loss and decode back', () => {
    const source = parseConversation(claudeCodeLikeConversation);
    const { value, warnings } = aiSdkCodec.encode(source);
    expect(validateAiSdkMessages(value)).toEqual([]);
    expect(value.system).toBe('You are Claude Code.');
    expect(value.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'reasoning', text: 'Read both files first.', providerOptions: { anthropic: { signature: 'EqQBCkYIBxgCKkB' } } }],
    });
    expect(value.messages[5]).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'toolu_2', toolName: 'Read', output: { type: 'error-text', value: 'ENOENT: no such file' } }],
    });
    expect(value.messages[0]?.content).toContainEqual({ type: 'file', data: 'iVBORw0KGgo=', filename: 'failure.png', mediaType: 'image/png' });
    const messages = warnings.map((warning) => warning.message).join('\n');
    expect(warnings.every((warning) => warning.type === 'lossy')).toBe(true);
    expect(messages).toContain('entry metadata (id, timestamp)');
    expect(messages).toContain('providerMetadata.anthropic');
    // One message per entry: everything but the dropped metadata comes back.
    expect(aiSdkCodec.decode(value).conversation).toEqual(withoutEntryMetadata(source));
  });

  it('AIS-011: should keep parallel calls of one function answered by their own tool messages', () => {
    const { value } = aiSdkCodec.encode(parseConversation(parallelSameFunctionConversation));
    expect(validateAiSdkMessages(value)).toEqual([]);
    expect(value.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(aiSdkCodec.decode(value).conversation).toEqual(parseConversation(parallelSameFunctionConversation));
  });

  it('AIS-012: should send Gemini thinking signatures as google.thoughtSignature', () => {
    const conversation = parseConversation({
      history: [{ speaker: 'ai', blocks: [{ type: 'thinking', thought: 't', signature: 'c2ln', providerMetadata: { gemini: {} } }] }],
    });
    expect(aiSdkCodec.encode(conversation).value.messages[0]?.content).toEqual([
      { type: 'reasoning', text: 't', providerOptions: { google: { thoughtSignature: 'c2ln' } } },
    ]);
  });

  it('AIS-013: should drop whitespace-only text beside other assistant parts of other formats, and keep an AI SDK prompt\'s own', () => {
    const conversation = parseConversation({
      history: [
        { speaker: 'human', blocks: [{ type: 'text', text: 'Fix it.' }] },
        {
          speaker: 'ai',
          blocks: [
            { type: 'text', text: '\n\n' },
            { type: 'thinking', thought: 'Look first.', signature: 'c2ln', providerMetadata: { anthropic: {} } },
            { type: 'tool_call', id: 'toolu_1', name: 'Read', parameters: { file_path: '/repo/a.ts' } },
          ],
        },
        { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'toolu_1', toolName: 'Read', result: 'a' }] },
        { speaker: 'ai', blocks: [{ type: 'text', text: ' ' }] },
      ],
    });
    const { value, warnings } = aiSdkCodec.encode(conversation);
    expect(value.messages[1]?.content).toEqual([
      { type: 'reasoning', text: 'Look first.', providerOptions: { anthropic: { signature: 'c2ln' } } },
      { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'Read', input: { file_path: '/repo/a.ts' } },
    ]);
    // A message of nothing but whitespace keeps it: there is nothing else to send.
    expect(value.messages[3]?.content).toBe(' ');
    expect(warnings).toContainEqual({
      type: 'other',
      message: 'whitespace-only text parts of assistant messages were dropped (Anthropic rejects them)',
      path: 'history[1]',
    });
    const own: AiSdkPrompt = {
      messages: [
        { role: 'user', content: 'Hi.' },
        { role: 'assistant', content: [{ type: 'text', text: '\n' }, { type: 'text', text: 'Hello.' }] },
      ],
    };
    expect(roundTrip(own)).toEqual(own);
  });

  it('AIS-005: should give a provider-executed result its own tool message once the assistant message it continued is gone', () => {
    const { history } = aiSdkCodec.decode({
      messages: [
        { role: 'user', content: 'Search the web' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'ws', toolName: 'web_search', input: { query: 'ctx' }, providerExecuted: true },
            { type: 'tool-result', toolCallId: 'ws', toolName: 'web_search', output: { type: 'text', value: 'a' } },
          ],
        },
      ],
    }).conversation;
    expect(history.map((entry) => entry.speaker)).toEqual(['human', 'ai', 'tool']);
    // A strategy that dropped the assistant entry (not pair-valid, but encode must still say what is there).
    const { value } = aiSdkCodec.encode({ history: [history[0], history[2]] as typeof history });
    expect(value.messages).toEqual([
      { role: 'user', content: 'Search the web' },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'ws', toolName: 'web_search', output: { type: 'text', value: 'a' } }] },
    ]);
  });
});
