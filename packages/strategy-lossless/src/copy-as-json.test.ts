import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyAsJson } from './copy-as-json.js';
import { propertyRuns } from '@ctx/test-properties';

// Plain data as records hold it, and what JSON treats specially: undefined fields and items, holes, -0, Infinity,
// NaN, `__proto__` and integer-like keys, objects without a prototype.
const plainData = fc.anything({
  key: fc.oneof(fc.string(), fc.constantFrom('__proto__', '0', '10', '2', 'constructor')),
  values: [fc.string(), fc.double(), fc.constantFrom(-0, Infinity, Number.NaN, undefined), fc.boolean(), fc.constant(null), fc.integer()],
  withNullPrototype: true,
  withSparseArray: true,
  maxDepth: 4,
});

describe('copyAsJson', () => {
  it('should give what a round trip through JSON text gives', () => {
    expect(copyAsJson({ version: 1, whole: undefined, at: -0, items: [undefined, 1] })).toStrictEqual({ version: 1, at: 0, items: [null, 1] });
    fc.assert(
      fc.property(fc.dictionary(fc.string(), plainData), (value) => {
        const copy = copyAsJson(value);
        // toEqual, not toStrictEqual: the latter compares `constructor` properties, which a key of that name replaces.
        expect(copy).toEqual(JSON.parse(JSON.stringify(value)));
        // The same text, keys in the same order.
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });
});
