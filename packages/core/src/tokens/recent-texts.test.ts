import { describe, expect, it } from 'vitest';
import { createRecentTexts } from './recent-texts.js';

describe('createRecentTexts', () => {
  it('should forget the texts set longest ago once over its number of texts, a text set again counting as new', () => {
    const recent = createRecentTexts<number>(2, 1000);
    recent.set('a', 1);
    recent.set('b', 2);
    recent.set('a', 3);
    recent.set('c', 4);
    expect([recent.get('a'), recent.get('b'), recent.get('c')]).toEqual([3, undefined, 4]);
  });

  it('should forget the oldest texts once their characters together are over its budget, and keep none longer than it', () => {
    const recent = createRecentTexts<string>(10, 10);
    recent.set('xxxx', 'first');
    recent.set('yyyy', 'second');
    recent.set('zzzz', 'third');
    expect([recent.get('xxxx'), recent.get('yyyy'), recent.get('zzzz')]).toEqual([undefined, 'second', 'third']);
    recent.set('w'.repeat(11), 'too long');
    expect(recent.get('w'.repeat(11))).toBeUndefined();
    expect(recent.get('zzzz')).toBe('third');
  });
});
