import { describe, expect, it } from 'vitest';
import { deepFreeze } from './deep-freeze.js';

describe('deepFreeze', () => {
  it('should freeze every object and array inside the value and return it', () => {
    const value = { messages: [{ content: [{ text: 'Hi' }] }] };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value.messages[0]?.content[0])).toBe(true);
    expect(() => {
      (value.messages as unknown[]).push({});
    }).toThrow(TypeError);
  });

  it('should accept primitives and null', () => {
    expect(deepFreeze(null)).toBeNull();
    expect(deepFreeze('text')).toBe('text');
  });
});
