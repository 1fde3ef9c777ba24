import type { CompressionOrchestratorOptions, CompressionStrategy, Tokenizer, TurnReport } from '@ctx/core';

/**
 * What ctx did for one model call (or one step), handed to `onReport`.
 *
 * - `compressed`: the prompt went through the orchestrator; `report` is its turn report (passes that ran, tokens
 *   before and after, the calibrated request). The prompt sent may be unchanged when nothing was due.
 * - `passed-through`: something failed (see `error`) and the call went out with its prompt unchanged.
 * - `usage`: the call finished and its reported input tokens calibrated the conversation's later decisions.
 */
export type ContextReport =
  | {
      readonly type: 'compressed';
      /** The conversation key, or undefined for a stateless run. */
      readonly conversationId: string | undefined;
      readonly report: TurnReport;
      /** Messages of the prompt as received and as sent. */
      readonly messagesBefore: number;
      readonly messagesAfter: number;
      /** True when the conversation's state was (re)built from this prompt: first call, eviction, or an edited past. */
      readonly rebuilt: boolean;
    }
  | {
      readonly type: 'passed-through';
      readonly conversationId: string | undefined;
      /** Why: the codec, a strategy, the orchestrator (e.g. `ContextWindowExceededError`) or `UnsupportedPromptError`. */
      readonly error: unknown;
    }
  | {
      readonly type: 'usage';
      readonly conversationId: string | undefined;
      /** The input tokens the provider reported for the call (cached included). */
      readonly inputTokens: number;
      /** The calibration factor in effect for the conversation's next decisions. */
      readonly calibrationFactor: number;
    };

/** One strategy, or a list: the first active, the others its fallbacks. */
export type ContextStrategies = CompressionStrategy | readonly CompressionStrategy[];

/** Options shared by {@link createContextMiddleware} and {@link createContextPrepareStep}. */
export interface ContextOptions {
  /**
   * What compresses the history: one strategy (e.g. `createPresetStrategy(builtInPresets.balanced, { factories })`)
   * or a list, the first active and the others its fallbacks (tried in order when it fails, makes no progress or
   * leaves the request over the threshold), unless `settings` names the fallbacks itself. Strategies that keep state
   * of their own (e.g. `createStatefulWatermarkStrategy`) must not be shared between conversations: pass a function
   * that creates them, called once per conversation state.
   */
  readonly strategy: ContextStrategies | (() => ContextStrategies);
  /** The model's context window, in the provider's tokens (e.g. 200,000 for Claude Sonnet). */
  readonly contextWindow: number;
  /**
   * Counts tokens of the history: e.g. `await createGptTokenizer()` from `@ctx/tokenizer-gpt-tokenizer`. Required, so
   * an application picks its tokenizer (and its bundle size); calibration from the provider's reported usage corrects
   * for the difference to the provider's own tokenizer.
   */
  readonly tokenizer: Tokenizer;
  /** `compression.*` settings (threshold, reserved output tokens, fallbacks, …) handed to the orchestrator. */
  readonly settings?: CompressionOrchestratorOptions['settings'];
  /** A fixed compression target in tokens of the whole request; by default `threshold × window × 0.6`. */
  readonly targetTokens?: number;
  /** Token calibration (see `@ctx/core`); `false` turns it off. @default the orchestrator's (`latest-ratio`, 1.5 until the first usage) */
  readonly calibration?: CompressionOrchestratorOptions['calibration'];
  /** Handed to LLM strategies (summarize steps of a preset). */
  readonly summarizer?: CompressionOrchestratorOptions['summarizer'];
  /**
   * Prices the wrapped model. With it the orchestrator plans cache-aware: a rewrite of history already sent that
   * costs more in prompt-cache writes than it saves is declined while the request still fits (see `@ctx/core`).
   */
  readonly costModel?: CompressionOrchestratorOptions['costModel'];
  /** Cache-aware planning's horizon, or `false` to turn it off (see `@ctx/core`). */
  readonly cachePlanning?: CompressionOrchestratorOptions['cachePlanning'];
  /**
   * How many conversations keep their state (history, calibration, no-progress guard) in memory; the least recently
   * used is dropped beyond it, and rebuilt from its next prompt.
   * @default 100
   */
  readonly maxConversations?: number;
  /**
   * What to do when compression fails (a strategy throws, the prompt holds a part ctx cannot carry, the request
   * cannot be made to fit): `'pass-through'` sends the prompt unchanged and reports the error through `onReport`;
   * `'throw'` fails the call with the error.
   * @default 'pass-through'
   */
  readonly onError?: 'pass-through' | 'throw';
  /** Called for every call: what ran and what it did, failures passed through, usage fed back. */
  readonly onReport?: (report: ContextReport) => void;
}
