import type { Conversation, FormatWarning } from '@ctx/core';
import { aiSdkCodec } from '@ctx/format-ai-sdk';
import { anthropicMessagesCodec } from '@ctx/format-anthropic';
import { geminiCodec } from '@ctx/format-gemini';
import { openAIChatCodec } from '@ctx/format-openai';
import type { OutputFormat } from './output-format-names.js';

export { outputFormats, type OutputFormat } from './output-format-names.js';

/** Encodes a conversation for writing: the codec's native value and what could not be carried over. */
export function encodeConversation(
  conversation: Conversation,
  format: OutputFormat,
): { readonly value: unknown; readonly warnings: readonly FormatWarning[] } {
  switch (format) {
    case 'ctx':
      return { value: { ...conversation, format: 'ctx.conversation.v1' }, warnings: [] };
    case 'anthropic':
      return anthropicMessagesCodec.encode(conversation);
    case 'openai':
      return openAIChatCodec.encode(conversation);
    case 'gemini':
      return geminiCodec.encode(conversation);
    case 'ai-sdk':
      return aiSdkCodec.encode(conversation);
  }
}
