import type { JsonValue } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { shortenJsonValue } from './shorten-json-value.js';
import { lines } from './test-support/entries.js';

const limits = { mode: 'truncate' as const, maxChars: 20, maxLines: 2 };

describe('shortenJsonValue', () => {
  it('should return the same value object when nothing is over the limits', () => {
    const value: JsonValue = { file_path: '/repo/a.ts', offset: 10, flags: [true, null, 'short'] };
    const shortened = shortenJsonValue(value, limits);
    expect(shortened.value).toBe(value);
    expect(shortened).toMatchObject({ suppressed: 0, truncated: 0, removedChars: 0 });
  });

  it('should shorten only the long strings and keep keys, positions, numbers and short strings', () => {
    const value: JsonValue = { id: 'call-1', nested: { output: lines(10), count: 3 }, parts: ['ok', lines(10)] };
    const shortened = shortenJsonValue(value, limits);
    const cut = 'line 1\nline 2\n⟨ … 8 more lines truncated ⟩';
    expect(shortened.value).toEqual({ id: 'call-1', nested: { output: cut, count: 3 }, parts: ['ok', cut] });
    expect(shortened.truncated).toBe(2);
    expect(shortened.removedChars).toBe(2 * (lines(10).length - cut.length));
    // The input is untouched.
    expect(value).toEqual({ id: 'call-1', nested: { output: lines(10), count: 3 }, parts: ['ok', lines(10)] });
  });

  it('should shorten a bare string value', () => {
    expect(shortenJsonValue(lines(10), { ...limits, mode: 'suppress' })).toMatchObject({ value: '⟨ Content suppressed ⟩', suppressed: 1 });
  });

  it('should replace attachment parts whole only when asked', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(500) } };
    const value: JsonValue = [{ type: 'text', text: 'see image' }, image];
    expect(shortenJsonValue(value, limits, { replaceAttachments: true })).toMatchObject({
      value: [{ type: 'text', text: 'see image' }, { type: 'text', text: '⟨ Content suppressed ⟩' }],
      suppressed: 1,
    });
    // Without it the base64 is a long string like any other (tool parameters never carry attachments).
    const plain = shortenJsonValue(value, limits).value as { source: { data: string } }[];
    expect(plain[1]?.source.data).toMatch(/^A{20}\n⟨ … 480 more characters truncated ⟩$/);
  });
});
