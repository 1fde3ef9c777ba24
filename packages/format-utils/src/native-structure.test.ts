import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyNativeStructure, countUnchangedMessages, isSameNativeStructure, parseMessagesFrom } from './native-structure.js';
import { propertyRuns } from '@ctx/test-properties';

/** Values over a tiny domain (keys `a`/`b`, a few leaves, `undefined` included), so that two drawn are often alike. */
const { small } = fc.letrec((tie) => ({
  small: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(0, 1, 'a', '', true, null, undefined, Number.NaN),
    fc.array(tie('small'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b'), tie('small'), { maxKeys: 2 }),
  ),
}));

/** A text for a value that keeps what JSON loses here: `undefined` properties, `NaN`, arrays apart from objects. */
function describe_(value: unknown): string {
  const walk = (item: unknown): unknown => {
    if (item === undefined) return '(undefined)';
    if (typeof item === 'number' && Number.isNaN(item)) return '(NaN)';
    if (Array.isArray(item)) return ['(array)', ...item.map(walk)];
    if (typeof item === 'object' && item !== null) return ['(object)', ...Object.entries(item).map(([key, child]) => [key, walk(child)])];
    return item;
  };
  return JSON.stringify(walk(value));
}

describe('copyNativeStructure / isSameNativeStructure', () => {
  it('should call a value the same as a copy exactly when the two are alike, key order and undefined properties included', () => {
    fc.assert(
      fc.property(small, small, (value, other) => {
        expect(isSameNativeStructure(value, copyNativeStructure(value))).toBe(true);
        expect(isSameNativeStructure(other, copyNativeStructure(value))).toBe(describe_(other) === describe_(value));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('should keep the copy as it was when the caller changes the value in place', () => {
    const message = { role: 'user', content: [{ type: 'text', text: 'Read a.ts' }] };
    const copy = copyNativeStructure(message);
    message.content[0]!.text = 'Read b.ts';
    expect(isSameNativeStructure(message, copy)).toBe(false);
    expect(copy.content[0]?.text).toBe('Read a.ts');
  });

  it('should tell a property set to undefined from a missing one, and keys in another order', () => {
    expect(isSameNativeStructure({ a: 1, b: undefined }, copyNativeStructure({ a: 1 }))).toBe(false);
    expect(isSameNativeStructure({ b: 1, a: 1 }, copyNativeStructure({ a: 1, b: 1 }))).toBe(false);
    expect(isSameNativeStructure([], copyNativeStructure({}))).toBe(false);
  });
});

describe('countUnchangedMessages', () => {
  it('should count the messages equal to the copies, up to the first that differs, and none without a message array', () => {
    const copies = [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }].map((message) => copyNativeStructure(message));
    expect(countUnchangedMessages({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'c' }] }, copies).count).toBe(1);
    expect(countUnchangedMessages({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'd' }] }, copies).count).toBe(2);
    expect(countUnchangedMessages({ messages: [{ role: 'user', content: 'a' }] }, copies).count).toBe(1);
    expect(countUnchangedMessages({ messages: 'a' }, copies)).toEqual({ messages: undefined, count: 0 });
    expect(countUnchangedMessages(null, copies)).toEqual({ messages: undefined, count: 0 });
  });
});

describe('parseMessagesFrom', () => {
  /** A request parser that names the first message that is not a string by its index in what it was given. */
  const parse = (input: unknown): { readonly messages: readonly string[]; readonly model: unknown } => {
    const { messages, model } = input as { readonly messages: readonly unknown[]; readonly model: unknown };
    const bad = messages.findIndex((message) => typeof message !== 'string');
    if (bad >= 0) throw new TypeError(`messages[${bad}]: expected a string`);
    return { messages: messages as readonly string[], model };
  };

  it("should parse only the messages from `from` on, with the request's other fields", () => {
    expect(parseMessagesFrom({ model: 'm', messages: ['a', 'b', 'c'] }, 2, parse)).toEqual({ model: 'm', messages: ['c'] });
    expect(parseMessagesFrom({ model: 'm', messages: ['a', 'b', 'c'] }, 0, parse)).toEqual({ model: 'm', messages: ['a', 'b', 'c'] });
  });

  it('should name an invalid new message by its place in the whole request', () => {
    expect(() => parseMessagesFrom({ model: 'm', messages: ['a', 'b', 'c', 4] }, 2, parse)).toThrow('messages[3]: expected a string');
  });
});
