import { describe, expect, it } from 'vitest';
import { fieldsExcept } from './fields-except.js';
import { copyNativeStructure, isSameNativeStructure } from './native-structure.js';
import { setOwnField } from './set-own-field.js';

// A request body as JSON.parse reads it: `__proto__` is an ordinary field there.
const parsed = (): Record<string, unknown> => JSON.parse('{"type":"text","__proto__":{"x":1},"cache":true}') as Record<string, unknown>;

describe('setOwnField', () => {
  it('should keep a __proto__ key as a field, not as the prototype', () => {
    const record: Record<string, unknown> = {};
    setOwnField(record, '__proto__', { x: 1 });
    setOwnField(record, 'y', 2);

    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(JSON.stringify(record)).toBe('{"__proto__":{"x":1},"y":2}');
  });

  it('should let fieldsExcept and copyNativeStructure keep every field a JSON object holds', () => {
    const input = parsed();

    expect(JSON.stringify(fieldsExcept(input, ['type']))).toBe('{"__proto__":{"x":1},"cache":true}');
    const copy = copyNativeStructure(input);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(input));
    expect(isSameNativeStructure(input, copy)).toBe(true);
  });
});
