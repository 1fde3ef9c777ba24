import { describe, expect, it } from 'vitest';
import { isFlagSet, readNumberField, readObjectField, readStringField } from './read-json-field.js';

const object = { text: 'Hi', count: 3, infinite: Number.POSITIVE_INFINITY, nested: { a: 1 }, list: [1], nothing: null, flag: true, truthy: 'true' };

describe('readStringField', () => {
  it('should read a string and answer undefined for anything else', () => {
    expect(readStringField(object, 'text')).toBe('Hi');
    expect(readStringField(object, 'count')).toBeUndefined();
    expect(readStringField(object, 'missing')).toBeUndefined();
    expect(readStringField(undefined, 'text')).toBeUndefined();
  });
});

describe('readNumberField', () => {
  it('should read a finite number and answer undefined for anything else', () => {
    expect(readNumberField(object, 'count')).toBe(3);
    expect(readNumberField(object, 'infinite')).toBeUndefined();
    expect(readNumberField(object, 'text')).toBeUndefined();
    expect(readNumberField(undefined, 'count')).toBeUndefined();
  });
});

describe('readObjectField', () => {
  it('should read an object and answer undefined for arrays, null and missing fields', () => {
    expect(readObjectField(object, 'nested')).toEqual({ a: 1 });
    expect(readObjectField(object, 'list')).toBeUndefined();
    expect(readObjectField(object, 'nothing')).toBeUndefined();
    expect(readObjectField(undefined, 'nested')).toBeUndefined();
  });
});

describe('isFlagSet', () => {
  it('should be true only for the value true', () => {
    expect(isFlagSet(object, 'flag')).toBe(true);
    expect(isFlagSet(object, 'truthy')).toBe(false);
    expect(isFlagSet(object, 'missing')).toBe(false);
    expect(isFlagSet(undefined, 'flag')).toBe(false);
  });
});
