import type { ContextOptions } from './context-options.js';
import { ConversationState } from './conversation-state.js';

/** The conversations' states, least recently used first out beyond `maxConversations`. */
export class ConversationStore {
  private readonly states = new Map<string, ConversationState>();
  private readonly limit: number;

  constructor(private readonly options: ContextOptions) {
    this.limit = options.maxConversations ?? 100;
  }

  /** The state of a conversation (a fresh one for a stateless run, `id` undefined); marks it most recently used. */
  get(id: string | undefined): ConversationState {
    if (id === undefined || this.limit === 0) return new ConversationState(this.options);
    let state = this.states.get(id);
    if (state === undefined) {
      state = new ConversationState(this.options);
    } else {
      this.states.delete(id);
    }
    this.states.set(id, state);
    for (const [oldestId, oldest] of this.states) {
      if (this.states.size <= this.limit) break;
      oldest.dispose();
      this.states.delete(oldestId);
    }
    return state;
  }

  /** How many conversations keep state now. */
  get size(): number {
    return this.states.size;
  }

  /** Whether a conversation keeps state now. */
  has(id: string): boolean {
    return this.states.has(id);
  }
}
