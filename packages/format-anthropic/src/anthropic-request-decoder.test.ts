import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesCodec } from './anthropic-messages-codec.js';
import { createAnthropicRequestDecoder } from './anthropic-request-decoder.js';
import { anthropicRequest } from './test-support/anthropic-arbitraries.js';

type Request = { messages: unknown[] } & Record<string, unknown>;

/** What a client does to its request between two calls. */
type Step =
  | { readonly kind: 'append'; readonly from: number }
  | { readonly kind: 'replace'; readonly at: number; readonly from: number }
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'edit-in-place'; readonly at: number }
  | { readonly kind: 'undefined-property'; readonly at: number }
  | { readonly kind: 'invalid'; readonly at: number }
  | { readonly kind: 'fields'; readonly from: number }
  | { readonly kind: 'same' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('append' as const), from: fc.nat() }) },
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), from: fc.nat() }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('edit-in-place' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('undefined-property' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('invalid' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('fields' as const), from: fc.nat() }),
  fc.record({ kind: fc.constant('same' as const) }),
);

/** The codec's answer: its result, or the error it throws. */
function whole(request: unknown): unknown {
  try {
    return anthropicMessagesCodec.decode(request);
  } catch (error) {
    return { error: String(error) };
  }
}

describe('createAnthropicRequestDecoder', () => {
  it('should decode every request of a conversation exactly as the codec does, whatever the client changes between them', () => {
    fc.assert(
      fc.property(anthropicRequest, fc.array(anthropicRequest, { minLength: 1, maxLength: 4 }), fc.array(step, { maxLength: 10 }), (first, others, steps) => {
        const decoder = createAnthropicRequestDecoder();
        // Messages are taken from other requests whole, so tool_result blocks sometimes answer an earlier tool_use.
        const pool = others.flatMap((other) => other.messages);
        const pick = (index: number): unknown => structuredClone(pool[index % Math.max(1, pool.length)] ?? { role: 'user', content: 'Next.' });
        let request = structuredClone(first) as Request;
        const check = () => {
          let incremental: unknown;
          try {
            incremental = decoder.decode(request);
          } catch (error) {
            incremental = { error: String(error) };
          }
          expect(incremental).toEqual(whole(request));
          if (!(typeof incremental === 'object' && incremental !== null && 'error' in incremental)) expect(decoder.messages).toEqual(request.messages);
        };
        check();
        for (const change of steps) {
          const { messages } = request;
          const at = messages.length === 0 ? 0 : (('at' in change ? change.at : 0) % messages.length);
          if (change.kind === 'append') request = { ...request, messages: [...messages, pick(change.from), pick(change.from + 1)] };
          else if (change.kind === 'replace' && messages.length > 0) request = { ...request, messages: messages.map((message, index) => (index === at ? pick(change.from) : message)) };
          else if (change.kind === 'truncate') request = { ...request, messages: messages.slice(0, at) };
          else if (change.kind === 'edit-in-place' && messages.length > 0) {
            const message = messages[at] as { content: unknown };
            message.content = typeof message.content === 'string' ? `${message.content}!` : 'edited';
          } else if (change.kind === 'undefined-property' && messages.length > 0) (messages[at] as Record<string, unknown>)['note'] = undefined;
          else if (change.kind === 'invalid' && messages.length > 0) request = { ...request, messages: messages.map((message, index) => (index === at ? { role: 'user' } : message)) };
          else if (change.kind === 'fields') {
            const other = others[change.from % others.length] as Request;
            request = { ...other, messages };
          }
          check();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('should hand back the entries of unchanged messages as the same objects, and read a message changed in place again', () => {
    const decoder = createAnthropicRequestDecoder();
    const messages = [
      { role: 'user', content: 'Read a.ts' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const a = 1;' }] },
    ];
    const first = decoder.decode({ messages }).conversation.history;
    const next = [...messages, { role: 'assistant', content: 'It exports a.' }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'again' }] }];
    const second = decoder.decode({ messages: next });
    second.conversation.history.slice(0, 3).forEach((entry, index) => expect(entry).toBe(first[index]));
    // A result answering a tool_use of an earlier request takes the tool's name from it.
    expect(second.conversation.history.at(-1)?.blocks[0]).toMatchObject({ type: 'tool_response', toolName: 'Read' });
    expect(second).toEqual(anthropicMessagesCodec.decode({ messages: next }));
    expect(decoder.messages).toEqual(next);

    (messages[0] as { content: string }).content = 'Read b.ts';
    const third = decoder.decode({ messages: next }).conversation.history;
    expect(third[0]?.blocks[0]).toEqual({ type: 'text', text: 'Read b.ts' });
    expect(third[0]).not.toBe(first[0]);
  });

  it('should name an invalid new message by its index in the whole request', () => {
    const decoder = createAnthropicRequestDecoder();
    const messages = [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello.' }];
    decoder.decode({ messages });
    expect(() => decoder.decode({ messages: [...messages, { role: 'user', content: [{ type: 'tool_result' }] }] })).toThrow(/messages\[2\]\.content\[0\]/);
  });
});
