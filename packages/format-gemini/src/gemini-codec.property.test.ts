import { HistoryService, createTokenCounter, findToolPairingProblems } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geminiCodec } from './gemini-codec.js';
import type { GeminiContent, GeminiJsonObject, GeminiPart, GeminiRequest, GeminiTool } from './gemini-request.js';
import { validateGeminiRequest } from './validate-gemini-request.js';
import { propertyRuns } from '@ctx/test-properties';

const word = fc.constantFrom('read', 'the', 'file', 'ok', 'fails', 'fix', '', 'ünïcødé', '{"json": true}');
const text = fc.array(word, { maxLength: 6 }).map((words) => words.join(' '));
const signature = fc.option(fc.constantFrom('c2lnLWE=', 'c2lnLWI='), { nil: undefined });
const json = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const functionName = fc.constantFrom('read_file', 'run', 'search');

const signed = <T extends GeminiPart>(part: T, thoughtSignature: string | undefined): GeminiPart =>
  thoughtSignature === undefined ? part : { ...part, thoughtSignature };

const humanPart: fc.Arbitrary<GeminiPart> = fc.oneof(
  text.map((value) => ({ text: value })),
  fc.constantFrom<GeminiPart>(
    { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
    { fileData: { fileUri: 'gs://bucket/report.pdf' } },
    { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf', displayName: 'a.pdf' } },
    { text: 'meta', partMetadata: { source: 'ui' } },
  ),
);

const modelTextPart: fc.Arbitrary<GeminiPart> = fc.oneof(
  fc.tuple(text, signature).map(([value, thoughtSignature]) => signed({ text: value }, thoughtSignature)),
  fc.tuple(text, signature).map(([value, thoughtSignature]) => signed({ text: value, thought: true }, thoughtSignature)),
  fc.constantFrom<GeminiPart>({ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK' } }),
);

const callSpec = fc.record({
  name: functionName,
  withId: fc.boolean(),
  args: fc.option(fc.dictionary(fc.constantFrom('path', 'limit', 'q'), json, { maxKeys: 2 }), { nil: undefined }),
  signature,
  responseShape: fc.constantFrom('output', 'error', 'raw'),
  responseWithId: fc.boolean(),
  result: json,
});

type Turn = GeminiContent[];

const userTurn: fc.Arbitrary<Turn> = fc
  .tuple(fc.array(humanPart, { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([parts, omitRole]) => [omitRole ? { parts } : { role: 'user', parts }]);

/** A model content (text and calls) and, when it calls, the user content answering every call. */
const modelTurn: fc.Arbitrary<Turn> = fc
  .tuple(
    fc.array(modelTextPart, { maxLength: 3 }),
    fc.array(callSpec, { maxLength: 4 }),
    fc.array(humanPart, { maxLength: 2 }),
    fc.nat(),
    // Often 0: many turns then reuse the same ids, as endpoints that number calls per turn do.
    fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1_000_000 })),
  )
  .map(([texts, calls, extraUserParts, shuffleSeed, idSeed]) => {
    const callParts = calls.map((call, index): GeminiPart => {
      const id = call.withId ? `id-${idSeed}-${index}` : undefined;
      return signed(
        { functionCall: { ...(id === undefined ? {} : { id }), name: call.name, ...(call.args === undefined ? {} : { args: call.args as never }) } },
        call.signature,
      );
    });
    const model: GeminiContent = { role: 'model', parts: [...texts, ...callParts] };
    if (calls.length === 0) return [model];
    const responses = calls.map((call, index): GeminiPart => {
      const result = call.result as never;
      const response: GeminiJsonObject =
        call.responseShape === 'output' ? { output: result } : call.responseShape === 'error' ? { error: result } : { value: result, raw: true };
      // Responses to calls without id may only be matched by name and order, so keep their order; others may move.
      const id = call.withId && call.responseWithId ? `id-${idSeed}-${index}` : undefined;
      return { functionResponse: { ...(id === undefined ? {} : { id }), name: call.name, response } };
    });
    const rotated = calls.every((call) => call.withId && call.responseWithId)
      ? [...responses.slice(shuffleSeed % responses.length), ...responses.slice(0, shuffleSeed % responses.length)]
      : responses;
    const parts = [...rotated];
    extraUserParts.forEach((part, index) => parts.splice((shuffleSeed + index) % (parts.length + 1), 0, part));
    return [model, { role: 'user', parts }];
  });

const tools: fc.Arbitrary<GeminiTool[] | undefined> = fc.constantFrom(
  undefined,
  [],
  [{ functionDeclarations: [{ name: 'read_file', parametersJsonSchema: { type: 'object' } }] }],
  [{ functionDeclarations: [{ name: 'run', parameters: { type: 'OBJECT' } }] }, { codeExecution: {} }],
);

const request: fc.Arbitrary<GeminiRequest> = fc
  .record({
    turns: fc.array(fc.oneof(userTurn, modelTurn), { maxLength: 12 }),
    system: fc.option(fc.array(text.map((value) => ({ text: value })), { maxLength: 2 }), { nil: undefined }),
    tools,
    generationConfig: fc.option(fc.constant({ temperature: 0 }), { nil: undefined }),
  })
  .map(({ turns, system, tools: toolList, generationConfig }) => ({
    ...(system === undefined ? {} : { systemInstruction: { parts: system } }),
    contents: turns.flat(),
    ...(toolList === undefined ? {} : { tools: toolList }),
    ...(generationConfig === undefined ? {} : { generationConfig }),
  }));

describe('geminiCodec (properties)', () => {
  it('should round-trip every generated request exactly, without touching the input', () => {
    fc.assert(
      fc.property(request, (input) => {
        const before = structuredClone(input);
        const { conversation } = geminiCodec.decode(input);
        expect(input).toEqual(before);
        expect(geminiCodec.encode(conversation).value).toEqual(input);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('should decode requests whose calls are all answered into pair-valid histories a HistoryService accepts', () => {
    const tokenCounter = createTokenCounter({ specificationVersion: 'v1', name: 'characters', countTokens: (value) => value.length });
    fc.assert(
      fc.property(request, (input) => {
        const pairingIssues = validateGeminiRequest(input).filter((issue) => issue.message.includes('function'));
        const { conversation } = geminiCodec.decode(input);
        if (pairingIssues.length > 0) return;
        expect(findToolPairingProblems(conversation.history)).toEqual([]);
        // Entry by entry, as an agent loop adds them: a call id used twice (ids reused across turns) is refused.
        const service = new HistoryService({ tokenCounter });
        for (const entry of conversation.history) service.add(entry);
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
