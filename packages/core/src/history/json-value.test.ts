import { describe, expect, it } from 'vitest';
import { isJsonArray, isJsonObject, isJsonValue, type JsonValue } from './json-value.js';

describe('isJsonValue', () => {
  it('should accept JSON data and tolerate undefined properties', () => {
    expect(isJsonValue({ a: [1, 'x', null, true], b: undefined })).toBe(true);
  });

  it('should reject what JSON cannot carry', () => {
    for (const value of [NaN, Infinity, () => 1, new Date(), new Map(), Symbol('s'), 1n, undefined]) {
      expect(isJsonValue(value)).toBe(false);
    }
  });
});

describe('isJsonArray / isJsonObject', () => {
  it('should tell arrays, objects and scalars apart', () => {
    const values: JsonValue[] = [[1], { a: 1 }, null, 'text', 3];
    expect(values.map((value) => [isJsonArray(value), isJsonObject(value)])).toEqual([
      [true, false],
      [false, true],
      [false, false],
      [false, false],
      [false, false],
    ]);
  });
});
