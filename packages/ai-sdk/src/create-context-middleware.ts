import type { ContextOptions, ContextReport } from './context-options.js';
import type { ConversationState } from './conversation-state.js';
import { ConversationStore } from './conversation-store.js';
import {
  readConversationId,
  readInputTokens,
  type LanguageModelCallParams,
  type LanguageModelLike,
} from './language-model-call.js';
import { fromAiSdkPrompt, languageModelPromptSource, type LanguageModelPromptMessage } from './language-model-prompt.js';
import { validateContextOptions } from './validate-context-options.js';

/** Options of {@link createContextMiddleware}. */
export interface ContextMiddlewareOptions extends ContextOptions {
  /**
   * Which conversation a call belongs to: calls with the same key share state (the compressed history, calibration,
   * the no-progress guard); undefined runs the call stateless (its prompt compressed on its own, nothing kept).
   * @default reads `providerOptions.ctx.conversationId` of the call
   */
  readonly conversationId?: (params: LanguageModelCallParams) => string | undefined;
}

/**
 * A language-model middleware (for `wrapLanguageModel` of AI SDK 6 and 7). Typed structurally, so the same object
 * fits both versions' `LanguageModelMiddleware`; `transformParams` returns the call options it was given with only
 * `prompt` replaced.
 */
export interface ContextMiddleware {
  readonly specificationVersion: 'v3';
  /** Compresses the call's prompt (both `generate` and `stream` calls). */
  readonly transformParams: <Params extends LanguageModelCallParams>(options: {
    readonly type: 'generate' | 'stream';
    readonly params: Params;
    readonly model: LanguageModelLike;
  }) => Promise<Params>;
  /** Feeds the call's reported input tokens to the conversation's calibration. */
  readonly wrapGenerate: <Result>(options: { readonly doGenerate: () => PromiseLike<Result>; readonly params: LanguageModelCallParams }) => Promise<Result>;
  /** Feeds the input tokens of the stream's `finish` part to the conversation's calibration; parts pass unchanged. */
  readonly wrapStream: <Result extends { readonly stream: ReadableStream<unknown> }>(options: {
    readonly doStream: () => PromiseLike<Result>;
    readonly params: LanguageModelCallParams;
  }) => Promise<Result>;
}

interface SentCall {
  readonly state: ConversationState;
  readonly conversationId: string | undefined;
  readonly estimatedTokens: number;
}

/**
 * Creates the middleware that keeps every model call's prompt inside the context window: before each call it decodes
 * the prompt into a ctx history (`@ctx/format-ai-sdk`), appends what is new since the conversation's last call, runs
 * the strategy through the orchestrator with the model's window, and hands the compressed prompt on. After the call,
 * the input tokens the provider reported calibrate the conversation's later decisions.
 *
 * Never breaks a call by default: when compression fails, the prompt goes out unchanged and `onReport` gets a
 * `passed-through` report with the error (`onError: 'throw'` fails the call instead).
 *
 * @param options - Strategy, context window and tokenizer (required); see {@link ContextMiddlewareOptions}.
 * @returns A middleware for `wrapLanguageModel({ model, middleware })`.
 * @throws `InvalidSettingsError` (from `@ctx/core`) when an option is invalid.
 *
 * @example
 * ```ts
 * import { wrapLanguageModel, generateText } from 'ai';
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { createContextMiddleware } from '@ctx/ai-sdk';
 * import { builtInPresets, createPresetStrategy } from '@ctx/presets';
 * import { createHighDensityStrategy } from '@ctx/strategy-high-density';
 * import { createTruncationStrategy } from '@ctx/strategy-truncation';
 * import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
 *
 * const model = wrapLanguageModel({
 *   model: anthropic('claude-sonnet-4-5'),
 *   middleware: createContextMiddleware({
 *     strategy: [createHighDensityStrategy(), createTruncationStrategy()],
 *     contextWindow: 200_000,
 *     tokenizer: await createGptTokenizer(),
 *   }),
 * });
 * await generateText({ model, messages, providerOptions: { ctx: { conversationId: 'chat-42' } } });
 * ```
 */
export function createContextMiddleware(options: ContextMiddlewareOptions): ContextMiddleware {
  validateContextOptions(options);
  const store = new ConversationStore(options);
  const sent = new WeakMap<object, SentCall>();
  const keyOf = options.conversationId ?? readConversationId;
  const report = (value: ContextReport) => options.onReport?.(value);

  const recordUsage = (call: SentCall | undefined, usage: unknown) => {
    const inputTokens = readInputTokens(usage);
    if (call === undefined || inputTokens === undefined) return;
    let factor: number | undefined;
    try {
      factor = call.state.recordUsage(inputTokens, call.estimatedTokens);
    } catch {
      // A usage figure the calibration refuses must not fail a call that already succeeded; the next decisions
      // simply go without it.
      return;
    }
    if (factor !== undefined) report({ type: 'usage', conversationId: call.conversationId, inputTokens, calibrationFactor: factor });
  };

  return {
    specificationVersion: 'v3',
    transformParams: async ({ params, model }) => {
      const conversationId = keyOf(params);
      let next = params;
      let done: ContextReport;
      try {
        const state = store.get(conversationId);
        const dialect = model.specificationVersion === 'v4' ? 'v4' : 'v3';
        const compressed = await state.compress(languageModelPromptSource(params.prompt, params.tools), params.abortSignal);
        const prompt = fromAiSdkPrompt(compressed.prompt, dialect) as readonly LanguageModelPromptMessage[];
        next = { ...params, prompt };
        sent.set(next, { state, conversationId, estimatedTokens: compressed.estimatedTokens });
        done = {
          type: 'compressed',
          conversationId,
          report: compressed.report,
          messagesBefore: params.prompt.length,
          messagesAfter: prompt.length,
          rebuilt: compressed.rebuilt,
        };
      } catch (error) {
        if (options.onError === 'throw') throw error;
        done = { type: 'passed-through', conversationId, error };
      }
      report(done);
      return next;
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      recordUsage(sent.get(params), (result as { usage?: unknown } | undefined)?.usage);
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const result = await doStream();
      const call = sent.get(params);
      if (call === undefined) return result;
      const stream = result.stream.pipeThrough(
        new TransformStream<unknown, unknown>({
          transform(part, controller) {
            if (typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'finish') {
              recordUsage(call, (part as { usage?: unknown }).usage);
            }
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
