import { describe, expect, it } from 'vitest';
import type { GeminiRequest } from './gemini-request.js';
import { validateGeminiRequest } from './validate-gemini-request.js';

const call = (name: string, id?: string) => ({ functionCall: { ...(id === undefined ? {} : { id }), name, args: {} } });
const response = (name: string, id?: string) => ({ functionResponse: { ...(id === undefined ? {} : { id }), name, response: { output: 'ok' } } });
const paths = (request: unknown) => validateGeminiRequest(request).map((issue) => issue.path);

describe('validateGeminiRequest', () => {
  it('should accept a request whose responses answer every call of the previous model turn', () => {
    const request: GeminiRequest = {
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [call('a'), call('a'), call('b', 'b-1')] },
        { role: 'user', parts: [response('b', 'b-1'), response('a'), response('a')] },
      ],
    };
    expect(validateGeminiRequest(request)).toEqual([]);
  });

  it('GV-001: should report structural problems with their paths first', () => {
    expect(paths({ contents: [{ role: 'user', parts: [{}] }] })).toEqual(['contents[0].parts[0]']);
  });

  it('GV-002: should require at least one content and at least one part per content', () => {
    expect(paths({ contents: [] })).toEqual(['contents']);
    expect(paths({ contents: [{ role: 'user', parts: [] }] })).toEqual(['contents[0].parts']);
  });

  it('GV-003: should report a call that the next user content does not answer', () => {
    const request = {
      contents: [
        { role: 'model', parts: [call('a'), call('b')] },
        { role: 'user', parts: [response('a')] },
      ],
    };
    expect(validateGeminiRequest(request)).toEqual([
      { path: 'contents[0].parts[1]', message: 'functionCall b is not answered by a functionResponse in the user content right after its model turn' },
    ]);
    expect(paths({ contents: [{ role: 'model', parts: [call('a')] }] })).toEqual(['contents[0].parts[0]']);
  });

  it('GV-004: should report a response that is not in the content right after the call', () => {
    const request = {
      contents: [
        { role: 'model', parts: [call('a')] },
        { role: 'user', parts: [{ text: 'wait' }] },
        { role: 'user', parts: [response('a')] },
      ],
    };
    expect(paths(request)).toEqual(['contents[0].parts[0]', 'contents[2].parts[0]']);
  });

  it('GV-005: should report a response whose id answers no call, and a second response to one call', () => {
    const request = {
      contents: [
        { role: 'model', parts: [call('a', 'x')] },
        { role: 'user', parts: [response('a', 'x'), response('a', 'y')] },
      ],
    };
    expect(paths(request)).toEqual(['contents[1].parts[1]']);
  });

  it('GV-006: should report calls in user contents and responses in model contents', () => {
    const request = {
      contents: [
        { role: 'user', parts: [call('a')] },
        { role: 'model', parts: [response('a')] },
      ],
    };
    expect(validateGeminiRequest(request).map((issue) => issue.message)).toEqual([
      'Expected functionCall parts only in model contents, found one in a user content',
      'Expected functionResponse parts only in user contents, found one in a model content',
    ]);
  });

  it('GV-007: should require valid unique function names and one parameter schema', () => {
    const request = {
      contents: [{ parts: [{ text: 'x' }] }],
      tools: [
        {
          functionDeclarations: [
            { name: 'read file' },
            { name: 'ok', parameters: {}, parametersJsonSchema: {} },
            { name: 'ok' },
          ],
        },
      ],
    };
    expect(paths(request)).toEqual([
      'tools[0].functionDeclarations[0].name',
      'tools[0].functionDeclarations[1]',
      'tools[0].functionDeclarations[2].name',
    ]);
  });

  it('GV-008: should require text parts in the system instruction', () => {
    const request = { systemInstruction: { parts: [{ fileData: { fileUri: 'gs://b/o' } }] }, contents: [{ parts: [{ text: 'x' }] }] };
    expect(paths(request)).toEqual(['systemInstruction.parts[0]']);
  });
});
