import { describe, expect, it } from 'vitest';
import { createTextCountCache } from './text-count-cache.js';

describe('createTextCountCache', () => {
  it('should give back what it remembers, and nothing for a text it does not hold', () => {
    const cache = createTextCountCache(100);
    cache.set('alpha', 2);
    cache.set('zero', 0);

    expect([cache.get('alpha'), cache.get('alpha'), cache.get('zero'), cache.get('beta')]).toEqual([2, 2, 0, undefined]);
  });

  it('should evict the oldest text not looked up again, giving a text looked up a second chance', () => {
    const cache = createTextCountCache(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.get('a');
    // Over budget: `a` was looked up, so it moves behind `d` and `b` goes.
    cache.set('d', 4);

    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([1, undefined, 3, 4]);
  });

  it('should evict a text whose second chance was used when nothing newer was looked up', () => {
    const cache = createTextCountCache(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.get('b');
    // Both had their chance: both move to the end unmarked, then the oldest of them goes; `c` stays.
    cache.set('c', 3);

    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('should keep within its budget of characters, never evicting the text it just remembered', () => {
    const cache = createTextCountCache(10);
    cache.set('12345', 1);
    cache.get('12345');
    cache.set('1234567890', 2);

    expect([cache.get('12345'), cache.get('1234567890')]).toEqual([undefined, 2]);
    cache.set('x'.repeat(11), 3);
    expect([cache.get('x'.repeat(11)), cache.get('1234567890')]).toEqual([undefined, 2]);
  });

  it('should charge each text its entry cost on top of its characters', () => {
    // Two one-character texts with 4 characters of bookkeeping each fill a budget of 10; a third evicts the first.
    const cache = createTextCountCache(10, 4);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);

    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
    // A text whose cost alone is over the budget is not remembered.
    cache.set('1234567', 4);
    expect(cache.get('1234567')).toBeUndefined();
  });
});
