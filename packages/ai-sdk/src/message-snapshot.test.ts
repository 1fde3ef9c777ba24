import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSameValue, snapshotValue } from './message-snapshot.js';
import { propertyRuns } from '@ctx/test-properties';

/** `value` with its `target`-th leaf (depth first) changed, if it has that many. */
function changeLeaf(value: unknown, target: number): unknown {
  let seen = 0;
  const walk = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item === 'object' && item !== null) return Object.fromEntries(Object.entries(item).map(([key, child]) => [key, walk(child)]));
    if (seen++ !== target) return item;
    if (typeof item === 'number') return item + 1;
    if (typeof item === 'string') return `${item}x`;
    if (typeof item === 'boolean') return !item;
    return 0;
  };
  return walk(value);
}

/** A JSON value and another: often an equal copy, often the same with one leaf changed, sometimes anything. */
const pair = fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat({ max: 8 }), fc.jsonValue({ maxDepth: 3 }), fc.nat({ max: 2 })).map(
  ([value, leaf, other, kind]) => [value, kind === 0 ? structuredClone(value) : kind === 1 ? changeLeaf(value, leaf) : other] as const,
);

describe('isSameValue', () => {
  it('should call two JSON values the same exactly when their JSON texts are equal', () => {
    fc.assert(
      fc.property(pair, ([earlier, later]) => {
        expect(isSameValue(later, snapshotValue(earlier))).toBe(JSON.stringify(later) === JSON.stringify(earlier));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('should still tell a change the caller makes in place after the snapshot', () => {
    const message = { role: 'user', content: [{ type: 'text', text: 'Read a.ts' }], providerOptions: { x: { y: [1, 2] } } };
    const snapshot = snapshotValue(message);
    expect(isSameValue(message, snapshot)).toBe(true);
    message.content[0]!.text = 'Read b.ts';
    expect(isSameValue(message, snapshot)).toBe(false);
    message.content[0]!.text = 'Read a.ts';
    message.providerOptions.x.y.push(3);
    expect(isSameValue(message, snapshot)).toBe(false);
  });

  it('should compare binary data by its bytes and URLs by their address', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const snapshot = snapshotValue({ data: bytes, url: new URL('https://example.com/a.png'), buffer: bytes.buffer.slice(0) });
    expect(isSameValue({ data: new Uint8Array([1, 2, 3]), url: new URL('https://example.com/a.png'), buffer: new Uint8Array([1, 2, 3]).buffer }, snapshot)).toBe(true);
    bytes[0] = 9;
    expect(isSameValue({ data: bytes, url: new URL('https://example.com/a.png'), buffer: new Uint8Array([1, 2, 3]).buffer }, snapshot)).toBe(false);
    expect(isSameValue({ data: new Uint8Array([1, 2, 3]), url: new URL('https://example.com/b.png'), buffer: new Uint8Array([1, 2, 3]).buffer }, snapshot)).toBe(false);
    expect(isSameValue({ data: new Uint8Array([1, 2, 3]), url: new URL('https://example.com/a.png'), buffer: new Uint8Array([1, 2, 4]).buffer }, snapshot)).toBe(false);
    expect(isSameValue({ data: 'AQID', url: 'https://example.com/a.png', buffer: {} }, snapshot)).toBe(false);
  });

  it("should copy a Buffer's bytes, so a change to the Buffer after the snapshot shows", () => {
    const data = Buffer.from([1, 2, 3]);
    const snapshot = snapshotValue({ data });
    data[0] = 9;
    expect(isSameValue({ data }, snapshot)).toBe(false);
    expect(isSameValue({ data: Buffer.from([1, 2, 3]) }, snapshot)).toBe(true);
  });

  it('should treat a property set to undefined as absent, as a prompt does, and see a property moved or renamed', () => {
    expect(isSameValue({ role: 'user', content: 'hi', providerOptions: undefined }, snapshotValue({ role: 'user', content: 'hi' }))).toBe(true);
    expect(isSameValue({ content: 'hi', role: 'user' }, snapshotValue({ role: 'user', content: 'hi' }))).toBe(false);
    expect(isSameValue({ type: 'text', value: 'hi' }, snapshotValue({ type: 'text', text: 'hi' }))).toBe(false);
    expect(isSameValue([1, Number.NaN], snapshotValue([1, Number.NaN]))).toBe(true);
  });

  it('should tell an array, an object, binary data and a URL apart even when they hold nothing alike', () => {
    const values = [[], {}, new Uint8Array(0), new ArrayBuffer(0), new URL('https://example.com/'), ['a'], { 0: 'a' }, [[]], [{}], { a: [] }, { a: {} }, null, ''];
    values.forEach((value, index) => {
      values.forEach((other, otherIndex) => {
        expect(isSameValue(other, snapshotValue(value)), `${String(otherIndex)} against the snapshot of ${String(index)}`).toBe(index === otherIndex);
      });
    });
    expect(isSameValue(Object.assign(Object.create(null) as object, { a: 1 }), snapshotValue({ a: 1 }))).toBe(true);
  });
});
