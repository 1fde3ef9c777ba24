import fc from 'fast-check';
import { clientRequests, decodeOutcome, type ClientStep } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { openAIChatCodec } from './openai-chat-codec.js';
import { createOpenAIRequestDecoder } from './openai-request-decoder.js';
import { openAIRequest } from './test-support/openai-arbitraries.js';
import { propertyRuns } from '@ctx/test-properties';

const step: fc.Arbitrary<ClientStep> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('append' as const), from: fc.nat() }) },
  fc.record({ kind: fc.constantFrom('truncate' as const, 'edit-in-place' as const, 'undefined-property' as const, 'invalid' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), from: fc.nat() }),
  fc.record({ kind: fc.constantFrom('fields' as const), from: fc.nat() }),
  fc.constant({ kind: 'same' as const }),
);

describe('createOpenAIRequestDecoder', () => {
  it('should decode every request of a conversation exactly as the codec does, whatever the client changes between them', () => {
    fc.assert(
      fc.property(openAIRequest, fc.array(openAIRequest, { minLength: 1, maxLength: 4 }), fc.array(step, { maxLength: 10 }), (first, others, steps) => {
        const decoder = createOpenAIRequestDecoder();
        // Messages are taken from other requests whole, so tool results sometimes answer an earlier tool call.
        const pool = others.flatMap((other) => other.messages);
        const pick = (index: number): unknown => structuredClone(pool[index % Math.max(1, pool.length)] ?? { role: 'user', content: 'Next.' });
        for (const request of clientRequests(structuredClone(first), steps, { pick, others })) {
          const incremental = decodeOutcome((input) => decoder.decode(input), request);
          expect(incremental).toEqual(decodeOutcome((input) => openAIChatCodec.decode(input), request));
          if (!(typeof incremental === 'object' && incremental !== null && 'error' in incremental)) expect(decoder.messages).toEqual(request.messages);
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('should hand back the entries of unchanged messages as the same objects, and read a message changed in place again', () => {
    const decoder = createOpenAIRequestDecoder();
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Read a.ts' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'export const a = 1;' },
    ];
    const first = decoder.decode({ messages }).conversation.history;
    const next = [...messages, { role: 'assistant', content: 'It exports a.' }, { role: 'tool', tool_call_id: 'call_1', content: 'again' }];
    const second = decoder.decode({ messages: next });
    second.conversation.history.slice(0, 3).forEach((entry, index) => expect(entry).toBe(first[index]));
    // A tool message answering a call of an earlier request takes the tool's name from it.
    expect(second.conversation.history.at(-1)?.blocks[0]).toMatchObject({ type: 'tool_response', toolName: 'read' });
    expect(second).toEqual(openAIChatCodec.decode({ messages: next }));
    expect(decoder.messages).toEqual(next);

    (messages[1] as { content: string }).content = 'Read b.ts';
    const third = decoder.decode({ messages: next }).conversation.history;
    expect(third[0]?.blocks[0]).toEqual({ type: 'text', text: 'Read b.ts' });
    expect(third[0]).not.toBe(first[0]);
  });

  it('should carry a legacy function call over to the function message of the next request', () => {
    const decoder = createOpenAIRequestDecoder();
    const messages = [
      { role: 'user', content: 'List the files.' },
      { role: 'assistant', content: null, function_call: { name: 'bash', arguments: '{"command":"ls"}' } },
    ];
    decoder.decode({ messages });
    const next = [...messages, { role: 'function', name: 'bash', content: 'a.ts' }];
    expect(decoder.decode({ messages: next })).toEqual(openAIChatCodec.decode({ messages: next }));
  });

  it('should name an invalid new message by its index in the whole request', () => {
    const decoder = createOpenAIRequestDecoder();
    const messages = [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello.' }];
    decoder.decode({ messages });
    expect(() => decoder.decode({ messages: [...messages, { role: 'tool', content: 'x' }] })).toThrow(/messages\[2\]/);
  });
});
