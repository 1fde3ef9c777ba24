import { propertyRuns } from '@ctx/test-properties';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSameJson } from './is-same-json.js';

/** The same value with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, item]) => [key, reversedKeys(item)]));
}

/** JSON text with every object's keys sorted: equal exactly when the values are the same JSON, key order aside. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

const json = fc.jsonValue({ maxDepth: 3 });

describe('isSameJson', () => {
  it('should ignore key order and keys whose value is undefined', () => {
    expect(isSameJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(isSameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(isSameJson({ a: 1 }, { a: 1, b: undefined })).toBe(true);
  });

  it('should tell apart values that differ anywhere: a value, a key, an array and an object, an array order', () => {
    expect(isSameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(isSameJson({ a: 1 }, { b: 1 })).toBe(false);
    expect(isSameJson({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(isSameJson([], {})).toBe(false);
    expect(isSameJson({}, [])).toBe(false);
    expect(isSameJson([1, 2], [2, 1])).toBe(false);
    expect(isSameJson('1', 1)).toBe(false);
    expect(isSameJson(null, {})).toBe(false);
  });

  it('should agree with comparing key-sorted JSON texts, and find every value equal to a copy with its keys reversed', () => {
    fc.assert(
      fc.property(json, json, (first, second) => {
        expect(isSameJson(first, second)).toBe(canonical(first) === canonical(second));
        expect(isSameJson(first, reversedKeys(first))).toBe(true);
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
