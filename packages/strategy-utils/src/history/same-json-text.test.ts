import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSameJsonText } from './same-json-text.js';
import { propertyRuns } from '@ctx/test-properties';

/**
 * JSON values over a tiny domain (keys `a`/`b`, a few leaves), so that two drawn independently are often equal and
 * often differ in one place only.
 */
const { small } = fc.letrec((tie) => ({
  small: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(0, 1, 'a', '', true, null),
    fc.array(tie('small'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b'), tie('small'), { maxKeys: 2 }),
  ),
}));

/** A copy with some keys set to `undefined` added and some objects' keys reordered. */
function reshaped(value: unknown, seed: number): unknown {
  let step = seed;
  const walk = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item !== 'object' || item === null) return item;
    const entries = Object.entries(item).map(([key, child]) => [key, walk(child)] as const);
    step = (step * 31 + 7) % 97;
    if (step % 3 === 0) entries.reverse();
    if (step % 5 === 0) entries.push(['absent', undefined]);
    return Object.fromEntries(entries);
  };
  return walk(value);
}

const pair = fc
  .tuple(small, small, fc.jsonValue({ maxDepth: 3 }), fc.nat({ max: 3 }), fc.nat({ max: 96 }))
  .map(([value, near, other, kind, seed]) => [value, [structuredClone(value), near, other, reshaped(value, seed)][kind]] as const);

describe('isSameJsonText', () => {
  it('should be true exactly when the two JSON texts are equal', () => {
    fc.assert(
      fc.property(pair, ([first, second]) => {
        expect(isSameJsonText(first, second)).toBe(JSON.stringify(first) === JSON.stringify(second));
        expect(isSameJsonText(second, first)).toBe(JSON.stringify(first) === JSON.stringify(second));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('should write undefined and non-finite numbers as JSON does: absent in an object, null in an array', () => {
    expect(isSameJsonText({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(isSameJsonText([undefined, Number.NaN, Number.POSITIVE_INFINITY], [null, null, null])).toBe(true);
    expect(isSameJsonText({ a: Number.NaN }, { a: null })).toBe(true);
    expect(isSameJsonText({ a: null }, {})).toBe(false);
    expect(isSameJsonText([1], { 0: 1 })).toBe(false);
  });
});
