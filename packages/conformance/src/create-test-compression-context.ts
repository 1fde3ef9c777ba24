import {
  createCompressionBudget,
  createTokenCounter,
  parseHistory,
  parseSystemInstructions,
  parseToolDefinitions,
  type CompressionContext,
  type HistoryEntry,
  type Summarizer,
  type TextBlock,
  type Todo,
  type Tokenizer,
  type ToolDefinition,
} from '@ctx/core';
import { createCharacterTokenizer } from './mocks/mock-tokenizer.js';

/** Options of {@link createTestCompressionContext}. */
export interface TestCompressionContextOptions {
  /** The history; validated and deep-frozen, so a strategy that mutates it fails loudly. */
  readonly history: readonly HistoryEntry[];
  /**
   * The context window. By default the size of the history plus system and tools, so the request is "just full"
   * and the target (threshold × window × 0.6) is well below it.
   */
  readonly contextLimit?: number;
  /** @default 0.85 */
  readonly threshold?: number;
  /** @default one token per 4 characters ({@link createCharacterTokenizer}) */
  readonly tokenizer?: Tokenizer;
  readonly system?: readonly TextBlock[];
  readonly tools?: readonly ToolDefinition[];
  readonly summarizer?: Summarizer;
  readonly activeTodos?: readonly Todo[];
  readonly transcriptPath?: string;
  readonly signal?: AbortSignal;
}

/**
 * Builds a frozen {@link CompressionContext} for unit tests of a strategy, the way the orchestrator would.
 *
 * @example
 * ```ts
 * const context = createTestCompressionContext({ history, contextLimit: 10_000 });
 * const result = await createMyStrategy().compress(context);
 * ```
 */
export function createTestCompressionContext(options: TestCompressionContextOptions): CompressionContext {
  const tokenCounter = createTokenCounter(options.tokenizer ?? createCharacterTokenizer());
  const history = parseHistory(options.history);
  const system = parseSystemInstructions(options.system ?? []);
  const tools = parseToolDefinitions(options.tools ?? []);
  const overheadTokens = tokenCounter.countOverhead(system, tools);
  const contextLimit = options.contextLimit ?? Math.max(1, tokenCounter.countEntries(history) + overheadTokens);
  return Object.freeze({
    history,
    system,
    tools,
    tokenCounter,
    budget: Object.freeze(
      createCompressionBudget({ contextLimit, threshold: options.threshold ?? 0.85, overheadTokens }),
    ),
    ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
    ...(options.activeTodos === undefined ? {} : { activeTodos: Object.freeze([...options.activeTodos]) }),
    ...(options.transcriptPath === undefined ? {} : { transcriptPath: options.transcriptPath }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}
