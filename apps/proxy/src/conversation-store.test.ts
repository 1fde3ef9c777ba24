import { describe, expect, it } from 'vitest';
import { ConversationStore } from './conversation-store.js';

describe('ConversationStore', () => {
  it('should forget the least recently used conversation beyond its capacity', () => {
    const store = new ConversationStore<number>(2);
    store.set('a', 1);
    store.set('b', 2);
    expect(store.get('a')).toBe(1);
    store.set('c', 3);
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')).toBe(1);
    expect(store.get('c')).toBe(3);
    expect(store.size).toBe(2);
    expect(store.evicted).toBe(1);
  });
});
