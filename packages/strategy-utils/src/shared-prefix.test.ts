import { describe, expect, it } from 'vitest';
import { countSharedPrefix } from './shared-prefix.js';
import { answer, human } from './test-support/entries.js';

const first = human('a');
const second = answer('b');
const third = human('c');
const fourth = answer('d');

describe('countSharedPrefix', () => {
  it('should count the leading positions holding the same objects, frozen arrays or not', () => {
    expect(countSharedPrefix([first, second, third], [first, second, fourth])).toBe(2);
    expect(countSharedPrefix(Object.freeze([first, second, third]), Object.freeze([first, second, third, fourth]))).toBe(3);
    expect(countSharedPrefix(Object.freeze([first, second]), [first, second])).toBe(2);
  });

  it('should compare objects, not their content, and stop at the limit', () => {
    expect(countSharedPrefix([first, { ...second }], [first, second])).toBe(1);
    expect(countSharedPrefix([first, second, third], [first, second, third], 2)).toBe(2);
    expect(countSharedPrefix([], [first])).toBe(0);
  });
});
