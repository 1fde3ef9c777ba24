import type { AiSdkPrompt } from '@ctx/format-ai-sdk';

/**
 * A prompt as a caller hands it to a conversation's state: its messages as the caller has them (compared with those
 * seen before, so only new ones are converted and decoded) and how to read them as the codec's prompt fields.
 */
export interface PromptSource {
  /** The prompt's messages, in the caller's form. */
  readonly messages: readonly unknown[];
  /** Whatever else of the prompt decoding reads (the system string, the tools), compared whole with the last call's. */
  readonly context?: unknown;
  /**
   * The codec's prompt fields: of the whole prompt when `from` is 0, otherwise of the messages from `from` on alone
   * (without system string or tools).
   *
   * @throws `UnsupportedPromptError` when a message has a part the codec cannot carry (its path counts from the
   * first message of the whole prompt).
   */
  toPrompt(from: number): AiSdkPrompt;
}

/**
 * The source for prompt fields the caller already has in the codec's form (`ModelMessage`s, as `prepareStep` gets
 * them): the system string and tools are the context.
 *
 * @param prompt - The prompt fields.
 * @returns Its source.
 */
export function sourceOfAiSdkPrompt(prompt: AiSdkPrompt): PromptSource {
  return {
    messages: prompt.messages,
    context: [prompt.system, prompt.tools],
    toPrompt: (from) => (from === 0 ? prompt : { messages: prompt.messages.slice(from) }),
  };
}
