/**
 * A bounded map of conversation states, least recently used first out: memory stays bounded however many
 * conversations pass through the proxy. A forgotten conversation starts again from scratch on its next request.
 *
 * @typeParam State - What is kept per conversation.
 */
export class ConversationStore<State> {
  private readonly states = new Map<string, State>();
  private evictions = 0;

  /** @param capacity - Conversations kept at most. */
  constructor(private readonly capacity: number) {}

  /** The state of `key`, marked as the most recently used; undefined when unknown or forgotten. */
  get(key: string): State | undefined {
    const state = this.states.get(key);
    if (state === undefined) return undefined;
    // Map iteration order is insertion order: re-inserting moves the key to the newest end.
    this.states.delete(key);
    this.states.set(key, state);
    return state;
  }

  /** Stores `state` under `key` as the most recently used, forgetting the least recently used beyond the capacity. */
  set(key: string, state: State): void {
    this.states.delete(key);
    this.states.set(key, state);
    while (this.states.size > this.capacity) {
      const oldest = this.states.keys().next();
      if (oldest.done === true) break;
      this.states.delete(oldest.value);
      this.evictions += 1;
    }
  }

  /** Forgets `key`. */
  delete(key: string): void {
    this.states.delete(key);
  }

  /** Conversations held now. */
  get size(): number {
    return this.states.size;
  }

  /** Conversations forgotten because the store was full. */
  get evicted(): number {
    return this.evictions;
  }
}
