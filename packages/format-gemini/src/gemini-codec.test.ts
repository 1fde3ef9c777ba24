import {
  HistoryService,
  InvalidFormatError,
  createTokenCounter,
  findToolPairingProblems,
  parseConversation,
  type ContentBlock,
  type HistoryEntry,
} from '@ctx/core';
import { claudeCodeLikeConversation, deepFreeze, parallelSameFunctionConversation } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { createGeminiCodec, geminiCodec } from './gemini-codec.js';
import type { GeminiRequest } from './gemini-request.js';
import { validateGeminiRequest } from './validate-gemini-request.js';

const roundTrip = (request: GeminiRequest) => geminiCodec.encode(geminiCodec.decode(request).conversation).value;

function expectInvalid(input: unknown, paths: string[]): void {
  try {
    geminiCodec.decode(input);
  } catch (error) {
    expect(InvalidFormatError.isInstance(error)).toBe(true);
    if (!InvalidFormatError.isInstance(error)) return;
    expect(error.format).toBe('gemini-content');
    expect(error.issues.map((issue) => issue.path)).toEqual(paths);
    return;
  }
  expect.unreachable('decode should have thrown');
}

describe('geminiCodec', () => {
  it('should be a v1 codec for gemini-content', () => {
    expect(geminiCodec.specificationVersion).toBe('v1');
    expect(geminiCodec.format).toBe('gemini-content');
  });

  it('GEM-001: should decode model contents as ai entries: text, thought summaries with signatures, calls', () => {
    const request: GeminiRequest = {
      contents: [
        { role: 'user', parts: [{ text: 'List the files' }] },
        {
          role: 'model',
          parts: [
            { text: 'I should run ls.', thought: true, thoughtSignature: 'c2lnLTE=' },
            { functionCall: { id: 'fc-1', name: 'run', args: { command: 'ls' } }, thoughtSignature: 'c2lnLTI=' },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { id: 'fc-1', name: 'run', response: { output: 'a.ts' } } }] },
        { role: 'model', parts: [{ text: 'One file: a.ts' }] },
      ],
    };
    const { conversation, warnings } = geminiCodec.decode(request);
    expect(warnings).toEqual([]);
    expect(conversation.history.map((entry) => entry.speaker)).toEqual(['human', 'ai', 'tool', 'ai']);
    expect(conversation.history[1]?.blocks).toEqual([
      { type: 'thinking', thought: 'I should run ls.', signature: 'c2lnLTE=', providerMetadata: { gemini: {} } },
      {
        type: 'tool_call',
        id: 'fc-1',
        name: 'run',
        parameters: { command: 'ls' },
        providerMetadata: { gemini: { part: { thoughtSignature: 'c2lnLTI=' } } },
      },
    ]);
    expect(conversation.history[2]?.blocks).toEqual([{ type: 'tool_response', callId: 'fc-1', toolName: 'run', result: 'a.ts' }]);
    expect(roundTrip(request)).toEqual(request);
  });

  it('GEM-002: should give calls without id deterministic ids and omit them again on encode', () => {
    const request: GeminiRequest = {
      contents: [
        { role: 'user', parts: [{ text: 'Time?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'now' } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'now', response: { output: '12:00' } } }] },
      ],
    };
    const first = geminiCodec.decode(request).conversation;
    const second = geminiCodec.decode(request).conversation;
    expect(first).toEqual(second);
    const call = first.history[1]?.blocks[0];
    const response = first.history[2]?.blocks[0];
    expect(call).toMatchObject({ type: 'tool_call', id: 'gemini-call-1-0', parameters: {} });
    expect(response).toMatchObject({ type: 'tool_response', callId: 'gemini-call-1-0' });
    expect(findToolPairingProblems(first.history)).toEqual([]);
    expect(roundTrip(request)).toEqual(request);
  });

  it('GEM-003: should pair responses to parallel calls of one function without ids by call order', () => {
    const request: GeminiRequest = {
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { output: 'Paris: 18' } } },
            { functionResponse: { name: 'get_weather', response: { output: 'Rome: 24' } } },
          ],
        },
      ],
    };
    const { history } = geminiCodec.decode(request).conversation;
    const calls = history[1]?.blocks as ContentBlock[];
    const responses = history[2]?.blocks as ContentBlock[];
    expect(calls.map((block) => block.type === 'tool_call' && block.id)).toEqual(['gemini-call-1-0', 'gemini-call-1-1']);
    expect(responses.map((block) => block.type === 'tool_response' && [block.callId, block.result])).toEqual([
      ['gemini-call-1-0', 'Paris: 18'],
      ['gemini-call-1-1', 'Rome: 24'],
    ]);
    expect(roundTrip(request)).toEqual(request);
  });

  it('GEM-004: should pair a response carrying an id to the call with that id, whatever the order', () => {
    const request: GeminiRequest = {
      contents: [
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'first', name: 'read', args: { path: 'a' } } },
            { functionCall: { id: 'second', name: 'read', args: { path: 'b' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'second', name: 'read', response: { output: 'B' } } },
            { functionResponse: { id: 'first', name: 'read', response: { output: 'A' } } },
          ],
        },
      ],
    };
    const { history } = geminiCodec.decode(request).conversation;
    expect(history[1]?.blocks.map((block) => block.type === 'tool_response' && [block.callId, block.result])).toEqual([
      ['second', 'B'],
      ['first', 'A'],
    ]);
    expect(roundTrip(request)).toEqual(request);
  });

  it('GEM-005: should split a user content into a tool entry then a human entry and re-merge it in the original order', () => {
    const request: GeminiRequest = {
      contents: [
        { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'read', args: {} } }] },
        {
          role: 'user',
          parts: [{ text: 'Here is the result:' }, { functionResponse: { id: 'c1', name: 'read', response: { output: 'x' } } }, { text: 'Go on.' }],
        },
      ],
    };
    const { history } = geminiCodec.decode(request).conversation;
    expect(history.map((entry) => entry.speaker)).toEqual(['ai', 'tool', 'human']);
    expect(history[2]?.blocks.map((block) => block.type === 'text' && block.text)).toEqual(['Here is the result:', 'Go on.']);
    expect(findToolPairingProblems(history)).toEqual([]);
    expect(roundTrip(request)).toEqual(request);
  });

  it('GEM-006: should read { output } as the result, { error } as an error result and any other object as a whole', () => {
    const request: GeminiRequest = {
      contents: [
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'a', name: 'f', args: {} } },
            { functionCall: { id: 'b', name: 'f', args: {} } },
            { functionCall: { id: 'c', name: 'f', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'a', name: 'f', response: { output: { rows: 2 } } } },
            { functionResponse: { id: 'b', name: 'f', response: { error: 'timeout' } } },
            { functionResponse: { id: 'c', name: 'f', response: { rows: 3, truncated: false } } },
          ],
        },
      ],
    };
    const blocks = geminiCodec.decode(request).conversation.history[1]?.blocks;
    expect(blocks).toMatchObject([
      { result: { rows: 2 } },
      { result: 'timeout', isError: true },
      { result: { rows: 3, truncated: false }, providerMetadata: { gemini: { responseShape: 'raw' } } },
    ]);
    expect(blocks?.[0]).not.toHaveProperty('isError');
    expect(roundTrip(request)).toEqual(request);
  });

  it('GEM-007: should keep code execution parts opaque, as text for other formats, with a warning', () => {
    const request: GeminiRequest = {
      contents: [
        {
          role: 'model',
          parts: [
            { executableCode: { language: 'PYTHON', code: 'print(1 + 1)' } },
            { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2\n' } },
          ],
        },
      ],
    };
    const { conversation, warnings } = geminiCodec.decode(request);
    expect(conversation.history[0]?.blocks.map((block) => block.type === 'text' && block.text)).toEqual(['print(1 + 1)', '2\n']);
    expect(warnings.map((warning) => [warning.type, warning.path])).toEqual([
      ['unsupported', 'contents[0].parts[0]'],
      ['unsupported', 'contents[0].parts[1]'],
    ]);
    expect(roundTrip(request)).toEqual(request);
  });

  it('GEM-008: should throw InvalidFormatError naming every failing path', () => {
    expectInvalid({ contents: [{ role: 'user' }] }, ['contents[0].parts']);
    expectInvalid({ contents: [{ role: 'user', parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: '' } }] }] }, [
      'contents[0].parts[0]',
    ]);
    expectInvalid({ contents: [{ role: 'system', parts: [] }], tool: [] }, ['contents[0].role', '']);
    expectInvalid({ contents: [{ role: 'user', parts: [{ functionCall: { name: 'f' } }] }] }, ['contents[0].parts[0]']);
    expectInvalid({ systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: '' } }] }, contents: [] }, [
      'systemInstruction.parts[0]',
    ]);
    expectInvalid([], ['']);
  });

  it('GEM-009: should not modify its input and should return a frozen conversation sharing nothing with it', () => {
    const request = deepFreeze<GeminiRequest>({
      contents: [
        { role: 'model', parts: [{ functionCall: { name: 'f', args: { nested: { list: [1] } } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: { deep: true } } } }] },
      ],
    });
    const { conversation } = geminiCodec.decode(request);
    const call = conversation.history[0]?.blocks[0];
    expect(Object.isFrozen(call)).toBe(true);
    expect(call?.type === 'tool_call' && call.parameters).not.toBe(request.contents[0]?.parts[0]?.functionCall?.args);
    const { value } = geminiCodec.encode(conversation);
    expect(Object.isFrozen(value.contents[0]?.parts[0]?.functionCall?.args)).toBe(false);
  });

  it('GEM-010: should round-trip system instruction, built-in tools, declaration grouping and request settings', () => {
    const request: GeminiRequest = {
      systemInstruction: { role: 'system', parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] },
      contents: [{ parts: [{ text: 'Bonjour' }] }],
      tools: [
        { functionDeclarations: [{ name: 'a', parameters: { type: 'OBJECT', properties: {} } }] },
        { googleSearch: {} },
        { functionDeclarations: [{ name: 'b', description: 'B', parametersJsonSchema: { type: 'object' }, behavior: 'NON_BLOCKING' }] },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: { temperature: 0.2, thinkingConfig: { includeThoughts: true } },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    };
    const { conversation } = geminiCodec.decode(request);
    expect(conversation.system?.map((block) => block.text)).toEqual(['Be brief.', 'Answer in French.']);
    expect(conversation.tools?.map((tool) => [tool.name, tool.inputSchema])).toEqual([
      ['a', { type: 'OBJECT', properties: {} }],
      ['b', { type: 'object' }],
    ]);
    expect(roundTrip(request)).toEqual(request);
  });

  it('GEM-011: should warn about a functionResponse that answers no call and still round-trip it', () => {
    const request: GeminiRequest = {
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'user', parts: [{ functionResponse: { name: 'stray', response: { output: 1 } } }] },
      ],
    };
    const { conversation, warnings } = geminiCodec.decode(request);
    expect(warnings).toEqual([
      { type: 'other', message: 'functionResponse stray answers no functionCall of the model turn right before it', path: 'contents[1].parts[0]' },
    ]);
    expect(findToolPairingProblems(conversation.history).map((problem) => problem.kind)).toEqual(['orphan-response']);
    expect(roundTrip(request)).toEqual(request);
  });

  it('GEM-012: should encode a Claude Code-like conversation as a valid request and warn for every loss', () => {
    const { value, warnings } = geminiCodec.encode(parseConversation(claudeCodeLikeConversation));
    expect(validateGeminiRequest(value)).toEqual([]);
    expect(value.systemInstruction).toEqual({ parts: [{ text: 'You are Claude Code.' }] });
    expect(value.tools?.[0]?.functionDeclarations?.map((declaration) => Object.keys(declaration))).toEqual([
      ['name', 'description', 'parametersJsonSchema'],
      ['name', 'parametersJsonSchema'],
    ]);
    // One model content per assistant turn, one user content holding both responses.
    expect(value.contents.map((content) => [content.role, content.parts.length])).toEqual([
      ['user', 2],
      ['model', 3],
      ['user', 2],
      ['model', 1],
      ['user', 1],
      ['model', 1],
      ['user', 1],
    ]);
    expect(value.contents[1]?.parts[0]).toEqual({ text: 'Read both files first.', thought: true });
    expect(value.contents[2]?.parts[1]).toEqual({
      functionResponse: { id: 'toolu_2', name: 'Read', response: { error: 'ENOENT: no such file' } },
    });
    expect(value.contents[0]?.parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } });
    const messages = warnings.map((warning) => warning.message).join('\n');
    expect(warnings.every((warning) => warning.type === 'lossy')).toBe(true);
    expect(messages).toContain('filename');
    expect(messages).toContain('thinking signature');
    expect(messages).toContain('redacted thinking');
    expect(messages).toContain('providerMetadata.anthropic');
    expect(messages).toContain('entry metadata (id, timestamp)');
  });

  it('GEM-013: should put all responses of parallel calls in the one user content after the call', () => {
    const { value } = geminiCodec.encode(parseConversation(parallelSameFunctionConversation));
    expect(validateGeminiRequest(value)).toEqual([]);
    expect(value.contents[2]?.parts.map((part) => part.functionResponse?.id)).toEqual(['call_a', 'call_b']);
    const decoded = geminiCodec.decode(value).conversation.history;
    expect(decoded.map((entry) => entry.speaker)).toEqual(['human', 'ai', 'tool', 'ai']);
    expect(decoded[2]?.blocks.map((block) => block.type === 'tool_response' && block.result)).toEqual([{ celsius: 18 }, { celsius: 24 }]);
  });

  it('GEM-014: should sign the first call of each unsigned model content when asked to', () => {
    const codec = createGeminiCodec({ unsignedFunctionCallSignature: 'skip_thought_signature_validator' });
    const { value } = codec.encode(parseConversation(parallelSameFunctionConversation));
    expect(value.contents[1]?.parts.map((part) => part.thoughtSignature)).toEqual(['skip_thought_signature_validator', undefined]);
    expect(geminiCodec.encode(parseConversation(parallelSameFunctionConversation)).value.contents[1]?.parts[0]).not.toHaveProperty(
      'thoughtSignature',
    );
  });
  describe('call ids a provider reuses in every turn', () => {
    // Some Gemini-compatible endpoints number calls per turn, as Kimi-style OpenAI-compatible ones do.
    const turn = (path: string): GeminiRequest['contents'] => [
      { role: 'model', parts: [{ functionCall: { id: 'call_0', name: 'read', args: { path } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'call_0', name: 'read', response: { output: `content of ${path}` } } }] },
    ];
    const request: GeminiRequest = { contents: [{ role: 'user', parts: [{ text: 'read three files' }] }, ...turn('a'), ...turn('b'), ...turn('c')] };
    const ids = (history: readonly HistoryEntry[]) =>
      history.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : block.type === 'tool_response' ? [block.callId] : [])));

    it('GEM-015: should give each call reusing an earlier call\'s id (and its response) an id of its own, and write the recorded id back', () => {
      const { history } = geminiCodec.decode(request).conversation;

      expect(ids(history)).toEqual(['call_0', 'call_0', 'call_0_2', 'call_0_2', 'call_0_3', 'call_0_3']);
      expect(findToolPairingProblems(history)).toEqual([]);
      // As an agent loop adds them: HistoryService refuses a call id already used.
      const service = new HistoryService({ tokenCounter: createTokenCounter({ specificationVersion: 'v1', name: 'characters', countTokens: (text) => text.length }) });
      for (const entry of history) service.add(entry);
      expect(service.getAll()).toHaveLength(history.length);
      expect(roundTrip(request)).toEqual(request);
    });

    it('GEM-016: should write a response with the id its call was written with, even when it was rebuilt without its metadata', () => {
      const { history } = geminiCodec.decode(request).conversation;
      // What a strategy does when it replaces an old result with a shorter one.
      const rebuilt = history.map((entry) =>
        entry.speaker !== 'tool'
          ? entry
          : {
              speaker: 'tool' as const,
              blocks: entry.blocks.map((block) =>
                block.type === 'tool_response' ? { type: 'tool_response' as const, callId: block.callId, toolName: block.toolName, result: '[omitted]' } : block,
              ),
            },
      );
      const { value } = geminiCodec.encode({ history: rebuilt });

      expect(value.contents.flatMap((content) => content.parts.flatMap((part) => part.functionResponse?.id ?? []))).toEqual(['call_0', 'call_0', 'call_0']);
      expect(validateGeminiRequest(value)).toEqual([]);
    });

    it('GEM-017: should not rename a call to an id the request itself uses', () => {
      const taken: GeminiRequest = {
        contents: [
          ...turn('a'),
          { role: 'model', parts: [{ functionCall: { id: 'call_0_2', name: 'read', args: { path: 'x' } } }] },
          { role: 'user', parts: [{ functionResponse: { id: 'call_0_2', name: 'read', response: { output: 'x' } } }] },
          ...turn('b'),
        ],
      };
      const { history } = geminiCodec.decode(taken).conversation;

      expect(ids(history)).toEqual(['call_0', 'call_0', 'call_0_2', 'call_0_2', 'call_0_3', 'call_0_3']);
      expect(findToolPairingProblems(history)).toEqual([]);
      expect(roundTrip(taken)).toEqual(taken);
    });
  });
});
