import type { AiSdkModelMessage } from '@ctx/format-ai-sdk';
import type { ContextOptions, ContextReport } from './context-options.js';
import { ConversationStore } from './conversation-store.js';
import { sourceOfAiSdkPrompt } from './prompt-source.js';
import { readInputTokens } from './language-model-call.js';
import { validateContextOptions } from './validate-context-options.js';

/** What a `prepareStep` function receives (AI SDK 6 and 7), as far as ctx reads it. */
export interface PrepareStepInput {
  /** The messages the step would send: the call's messages plus every earlier step's response messages. */
  readonly messages: readonly unknown[];
  /** The earlier steps; the last one's `usage.inputTokens` calibrates the conversation. */
  readonly steps: readonly { readonly usage?: unknown }[];
  readonly stepNumber?: number;
}

/** Options of {@link createContextPrepareStep}. */
export interface ContextPrepareStepOptions extends ContextOptions {
  /**
   * Which conversation a step belongs to. Steps of one conversation share state (compressed history, calibration);
   * a conversation whose earlier messages changed is rebuilt from its messages.
   * @default every step belongs to one conversation (a helper per agent or chat)
   */
  readonly conversationId?: (input: PrepareStepInput) => string | undefined;
}

/**
 * A `prepareStep` function: returns the step's `messages` compressed, or `{}` (no change) when compression failed
 * and `onError` is `'pass-through'`.
 */
export type ContextPrepareStep = <Input extends PrepareStepInput>(input: Input) => Promise<{ messages?: Input['messages'] }>;

/**
 * Creates a `prepareStep` function for multi-step tool loops (`generateText` / `streamText` with `stopWhen`, and
 * agents): before every step it compresses the step's `messages` (the call's messages and every earlier step's
 * response) with the strategy, inside the model's window, and feeds the previous step's reported input tokens to the
 * calibration. State is kept between steps and calls, so each step only adds what the last step appended.
 *
 * Use it when you cannot wrap the model (or want compression to see `ModelMessage`s, e.g. with tool approval parts);
 * otherwise {@link createContextMiddleware} covers every call of the model, steps included. The system prompt is not
 * in `messages`: the calibration accounts for it after the first step.
 *
 * @param options - Strategy, context window and tokenizer (required); see {@link ContextPrepareStepOptions}.
 * @returns The function to pass as `prepareStep`.
 * @throws `InvalidSettingsError` (from `@ctx/core`) when an option is invalid.
 *
 * @example
 * ```ts
 * const result = await generateText({
 *   model,
 *   tools,
 *   messages,
 *   stopWhen: stepCountIs(40),
 *   prepareStep: createContextPrepareStep({ strategy, contextWindow: 128_000, tokenizer: await createGptTokenizer() }),
 * });
 * ```
 */
export function createContextPrepareStep(options: ContextPrepareStepOptions): ContextPrepareStep {
  validateContextOptions(options);
  const store = new ConversationStore(options);
  const keyOf = options.conversationId ?? (() => 'default');
  const report = (value: ContextReport) => options.onReport?.(value);

  return async (input) => {
    const conversationId = keyOf(input);
    let result: { messages?: (typeof input)['messages'] };
    let done: ContextReport;
    try {
      const state = store.get(conversationId);
      const inputTokens = readInputTokens(input.steps.at(-1)?.usage);
      const estimate = state.lastEstimatedTokens;
      if (inputTokens !== undefined && estimate !== undefined && input.steps.length > 0) {
        const factor = state.recordUsage(inputTokens, estimate);
        if (factor !== undefined) report({ type: 'usage', conversationId, inputTokens, calibrationFactor: factor });
      }
      const compressed = await state.compress(sourceOfAiSdkPrompt({ messages: input.messages as readonly AiSdkModelMessage[] }));
      const messages = [...(compressed.prompt.system === undefined ? [] : [{ role: 'system', content: compressed.prompt.system }]), ...compressed.prompt.messages];
      result = { messages };
      done = {
        type: 'compressed',
        conversationId,
        report: compressed.report,
        messagesBefore: input.messages.length,
        messagesAfter: messages.length,
        rebuilt: compressed.rebuilt,
      };
    } catch (error) {
      if (options.onError === 'throw') throw error;
      result = {};
      done = { type: 'passed-through', conversationId, error };
    }
    report(done);
    return result;
  };
}
