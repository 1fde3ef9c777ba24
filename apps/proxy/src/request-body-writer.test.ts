import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRequestBodyWriter } from './request-body-writer.js';

const textOf = (body: Uint8Array): string => new TextDecoder().decode(body);

/** JSON values as requests hold them, `undefined` properties included (JSON.stringify leaves them out). */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary' }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.option(tie('value'), { nil: undefined }), { maxKeys: 4 }),
  ),
})).value;

const message = fc.record({ role: fc.constantFrom('user', 'assistant'), content: jsonValue });

/**
 * A conversation's requests: each keeps a prefix of the one before (the same message objects, as the compressed
 * history gives them) and appends or replaces messages; fields change now and then.
 */
const conversation = fc
  .tuple(
    fc.array(message, { minLength: 1, maxLength: 6 }),
    fc.array(fc.record({ keep: fc.nat(), added: fc.array(message, { maxLength: 3 }), system: fc.option(jsonValue, { nil: undefined }) }), { maxLength: 6 }),
  )
  .map(([first, steps]) => {
    const requests: Record<string, unknown>[] = [{ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: first }];
    let messages: unknown[] = first;
    for (const step of steps) {
      messages = [...messages.slice(0, step.keep % (messages.length + 1)), ...step.added];
      requests.push({ model: 'claude-sonnet-4-5', system: step.system, messages, max_tokens: 1024 });
    }
    return requests;
  });

describe('createRequestBodyWriter', () => {
  it('should write every request of a conversation as exactly the UTF-8 bytes of its JSON', () => {
    fc.assert(
      fc.property(conversation, (requests) => {
        const writer = createRequestBodyWriter();
        for (const request of requests) expect(Buffer.from(writer.write(request)).equals(Buffer.from(JSON.stringify(request), 'utf8'))).toBe(true);
      }),
    );
  });

  it('should write a message whose content changed in place of the one sent before, and none of the old text', () => {
    const writer = createRequestBodyWriter();
    writer.write({ messages: [{ role: 'user', content: 'Fix the bug.' }, { role: 'assistant', content: 'Done: ✓' }] });
    const body = textOf(writer.write({ messages: [{ role: 'user', content: 'Fix the bug.' }, { role: 'assistant', content: 'Not yet 😅' }] }));
    expect(body).toBe('{"messages":[{"role":"user","content":"Fix the bug."},{"role":"assistant","content":"Not yet 😅"}]}');
  });

  it('should not read a message again that it wrote last time in the same place', () => {
    let reads = 0;
    // Counts every property read: serializing or comparing a message reads its properties.
    const counted = <T extends object>(value: T): T =>
      new Proxy(value, {
        get(target, key, receiver) {
          reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    const earlier = counted({ role: 'user', content: [{ type: 'text', text: 'A long tool result…'.repeat(100) }] });
    const writer = createRequestBodyWriter();
    writer.write({ model: 'm', messages: [earlier] });
    reads = 0;
    const body = textOf(writer.write({ model: 'm', messages: [earlier, { role: 'assistant', content: 'Next.' }] }));
    expect(reads).toBe(0);
    expect(JSON.parse(body)).toEqual({ model: 'm', messages: [earlier, { role: 'assistant', content: 'Next.' }] });
  });

  it('should tell which messages it wrote last time in the same place, JSON text for JSON text, and still write exact bytes', () => {
    fc.assert(
      fc.property(conversation, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (requests, asked) => {
        const writer = createRequestBodyWriter();
        let previous: readonly unknown[] = [];
        for (const request of requests) {
          const messages = request.messages as readonly unknown[];
          messages.forEach((item, index) => {
            // Asked of some messages only: the write must be exact whether or not a message was confirmed first.
            if (asked[index % asked.length] !== true) return;
            const expected = index < previous.length && JSON.stringify(previous[index]) === JSON.stringify(item);
            expect(writer.isWritten(item, index)).toBe(expected);
          });
          expect(Buffer.from(writer.write(request)).equals(Buffer.from(JSON.stringify(request), 'utf8'))).toBe(true);
          previous = messages;
        }
      }),
    );
  });

  it('should say which messages the last write sent as the bytes of the one in their place the write before', () => {
    fc.assert(
      fc.property(conversation, (requests) => {
        const writer = createRequestBodyWriter();
        let previous: readonly unknown[] = [];
        for (const request of requests) {
          writer.write(request);
          const messages = request.messages as readonly unknown[];
          const kept = messages.map((_message, index) => writer.wasKept(index));
          expect(kept).toEqual(messages.map((item, index) => index < previous.length && JSON.stringify(previous[index]) === JSON.stringify(item)));
          previous = messages;
        }
      }),
    );
  });

  it('should hold a confirmation for the very message it was given only', () => {
    const writer = createRequestBodyWriter();
    writer.write({ messages: [{ role: 'user', content: 'Fix the bug.' }] });
    const same = { role: 'user', content: 'Fix the bug.' };
    expect(writer.isWritten(same, 0)).toBe(true);
    expect(writer.isWritten({ role: 'user', content: 'Fix the bug!' }, 0)).toBe(false);
    expect(writer.isWritten(same, 1)).toBe(false);
    // Another message in that place is written as itself, not as the one confirmed.
    expect(textOf(writer.write({ messages: [{ role: 'user', content: 'Fix both bugs.' }] }))).toBe('{"messages":[{"role":"user","content":"Fix both bugs."}]}');
  });
});
