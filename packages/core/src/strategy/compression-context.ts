import type { TextBlock } from '../history/content-block.js';
import type { ToolDefinition } from '../history/conversation.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompressionBudget } from './compression-budget.js';
import type { Summarizer } from './summarizer.js';
import type { Todo } from './todo.js';

/**
 * Everything a strategy's `compress()` gets (spec 000 `CompressionContext`). All of it is read-only: a strategy
 * returns a new history instead of changing this one.
 */
export interface CompressionContext {
  /** The curated history (empty `ai` entries left out), frozen. */
  readonly history: readonly HistoryEntry[];
  /** System instructions: counted in the budget, never to be changed. */
  readonly system: readonly TextBlock[];
  /** Tool definitions: counted in the budget, never to be changed. */
  readonly tools: readonly ToolDefinition[];
  /** Counts tokens with the history's tokenizer and its per-entry cache. */
  readonly tokenCounter: TokenCounter;
  readonly budget: CompressionBudget;
  /** The agent's current task list, for strategies that summarize. */
  readonly activeTodos?: readonly Todo[];
  /** Where the full transcript is stored, so a summary can point the model at it. */
  readonly transcriptPath?: string;
  /** Summarizes entries with a model; present when the application configured one. */
  readonly summarizer?: Summarizer;
  /**
   * The condensing prompt of the condensing API profile (spec 004 FR-PR-003). LLM strategies that take a custom
   * prompt use it before their own `customPrompt` setting, and their built-in prompt when neither is set.
   */
  readonly condensingPrompt?: string;
  /** Aborts a long-running (LLM) compression. */
  readonly signal?: AbortSignal;
}
