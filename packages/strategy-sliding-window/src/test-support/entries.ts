import { MockTokenizer } from '@ctx/conformance';
import {
  createCompressionBudget,
  createTokenCounter,
  parseHistory,
  type CompressionContext,
  type HistoryEntry,
  type Summarizer,
  type Todo,
  type Tokenizer,
} from '@ctx/core';

/** One token per whitespace-separated word; the counter adds its 3-token entry overhead. */
export const wordTokenizer = (): MockTokenizer =>
  new MockTokenizer((text) => text.split(/\s+/).filter(Boolean).length, { name: 'words' });

/** `count` words: `words(3)` is `'w w w'`. */
export const words = (count: number, word = 'w'): string => Array.from({ length: count }, () => word).join(' ');

export const human = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });

export const aiText = (text: string): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'text', text }] });

/** An assistant entry with one tool call (the canonical form of a Go `model` FunctionCall content). */
export const call = (id: string, parameters: string = id, name = 'Read'): HistoryEntry => ({
  speaker: 'ai',
  blocks: [{ type: 'tool_call', id, name, parameters }],
});

/** A tool entry answering `id` (the canonical form of a Go `user` FunctionResponse content). */
export const result = (id: string, text: string = id, name = 'Read'): HistoryEntry => ({
  speaker: 'tool',
  blocks: [{ type: 'tool_response', callId: id, toolName: name, result: text }],
});

/** `pairs` complete call/result pairs and nothing else: spec 002's all-tool conversation. */
export function toolOnlyConversation(pairs: number, resultText: (index: number) => string = (index) => `r${index}`): HistoryEntry[] {
  return Array.from({ length: pairs }, (_, index) => [call(`tool_${index}`), result(`tool_${index}`, resultText(index))]).flat();
}

/** A frozen compression context, the way the orchestrator builds one. */
export function contextFor(
  history: readonly HistoryEntry[],
  options: {
    readonly contextLimit: number;
    readonly threshold?: number;
    readonly overheadTokens?: number;
    readonly tokenizer?: Tokenizer;
    readonly summarizer?: Summarizer;
    readonly activeTodos?: readonly Todo[];
    readonly signal?: AbortSignal;
  },
): CompressionContext {
  return Object.freeze({
    history: parseHistory(history),
    system: [],
    tools: [],
    tokenCounter: createTokenCounter(options.tokenizer ?? wordTokenizer()),
    budget: createCompressionBudget({
      contextLimit: options.contextLimit,
      threshold: options.threshold ?? 0.85,
      ...(options.overheadTokens === undefined ? {} : { overheadTokens: options.overheadTokens }),
    }),
    ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
    ...(options.activeTodos === undefined ? {} : { activeTodos: options.activeTodos }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}
