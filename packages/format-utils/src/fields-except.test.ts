import { describe, expect, it } from 'vitest';
import { fieldsExcept } from './fields-except.js';

describe('fieldsExcept', () => {
  it('should keep the fields the canonical block does not hold, and leave the input untouched', () => {
    const native = Object.freeze({ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' }, citations: null });
    expect(fieldsExcept(native, ['type', 'text'])).toEqual({ cache_control: { type: 'ephemeral' }, citations: null });
  });

  it('should leave out fields whose value is undefined', () => {
    expect(fieldsExcept({ type: 'text', detail: undefined }, ['type'])).toEqual({});
    expect(Object.keys(fieldsExcept({ type: 'text', detail: undefined }, ['type']))).toEqual([]);
  });
});
