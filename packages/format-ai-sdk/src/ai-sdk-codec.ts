import type { ConversationCodec, DecodeResult } from '@ctx/core';
import { createUniqueCallIds, type UniqueCallIds } from '@ctx/format-utils';
import { AI_SDK_MODEL_MESSAGES_FORMAT, parseAiSdkPrompt, type AiSdkPrompt } from './ai-sdk-prompt.js';
import { decodeAiSdkPrompt } from './decode-ai-sdk-prompt.js';
import { encodeAiSdkPrompt } from './encode-ai-sdk-prompt.js';

/**
 * Creates the codec between AI SDK prompt fields (`{ system?, messages: ModelMessage[], tools? }`, AI SDK 5 / 6 / 7
 * `ModelMessage` types) and the canonical conversation.
 *
 * Mapping:
 * - `system` and leading `system` messages → system blocks; a later system message → a human entry marked
 *   `aiSdk.role: 'system'` (warning `other`).
 * - `user` → `human` entry (text, image and file parts → text and media blocks); `assistant` → `ai` entry (text,
 *   file, `reasoning` → thinking, `tool-call` → tool_call); `tool` → `tool` entry. Provider-executed tool results
 *   inside assistant content become tool entries marked as continuing that message, and are merged back on encode.
 * - Tool outputs: `text` / `json` → the result, `error-text` / `error-json` → the result with `isError`, `content` →
 *   the list of items, `execution-denied` → its reason with `isError`.
 * - Reasoning signatures: Anthropic's `providerOptions.anthropic.signature` (or `redactedData`, for redacted
 *   thinking) and Gemini's `providerOptions.google.thoughtSignature` become the thinking block's signature, verbatim.
 * - Tool approval parts (`tool-approval-request`, `tool-approval-response`) have no canonical block: they are kept
 *   verbatim in their entry's `providerMetadata.aiSdk.approvals`, with their position, and put back on encode.
 * - `providerOptions` of messages, parts and tool definitions are kept untouched under `providerMetadata.aiSdk`,
 *   as are the details a round trip needs (string vs. array content, binary content kind, output type).
 * - A tool call reusing an earlier call's id (providers that number calls per turn) gets an id of its own in the
 *   history, `<id>_2`, `<id>_3`, …, as do the results answering it; encode writes the prompt's id back.
 *
 * `decode` throws `InvalidFormatError` (from `@ctx/core`) naming every failing path; it never modifies its input.
 * `encode(decode(x).conversation).value` deep-equals `x`. Encoding a conversation from another format warns once per
 * kind of loss (entry metadata, other providers' metadata, several system blocks joined into one string) and drops
 * whitespace-only text parts of assistant messages that hold something else, which Anthropic rejects.
 *
 * @returns A `ConversationCodec` with format `ai-sdk-model-messages`.
 *
 * @example
 * ```ts
 * const codec = createAiSdkCodec();
 * const { conversation } = codec.decode({ system, messages });
 * const { value } = codec.encode(compressedConversation);
 * const result = await generateText({ model, system: value.system, messages: value.messages, tools });
 * ```
 */
export function createAiSdkCodec(): ConversationCodec<AiSdkPrompt> {
  return {
    specificationVersion: 'v1',
    format: AI_SDK_MODEL_MESSAGES_FORMAT,
    decode: (input) => decodeAiSdkPrompt(parseAiSdkPrompt(input)),
    encode: (conversation) => encodeAiSdkPrompt(conversation),
  };
}

/**
 * The AI SDK codec (see {@link createAiSdkCodec}).
 *
 * @example
 * ```ts
 * const { conversation } = aiSdkCodec.decode({ messages: [{ role: 'user', content: 'Hi' }] });
 * ```
 */
export const aiSdkCodec: ConversationCodec<AiSdkPrompt> = createAiSdkCodec();

/** What {@link decodeAiSdkPromptContinuing} returns: the codec's decode result and the call ids after it. */
export interface ContinuingDecodeResult extends DecodeResult {
  /** The history's ids for every tool call id seen so far: pass it to the decode of the messages that come next. */
  readonly callIds: UniqueCallIds;
}

/**
 * Decodes prompt fields whose messages continue a conversation (e.g. only the messages added since the last call),
 * so that a tool call reusing an id of an earlier message is renamed as a decode of the whole prompt would rename it.
 * Otherwise the same as `aiSdkCodec.decode`.
 *
 * @param input - AI SDK prompt fields.
 * @param callIds - What the decode of the messages before returned; none for a prompt that starts the conversation.
 *   It is not changed: a failed decode leaves nothing half-told.
 * @returns The decode result and the call ids to continue from.
 * @throws `InvalidFormatError` (from `@ctx/core`) naming every failing path.
 *
 * @example
 * ```ts
 * const first = decodeAiSdkPromptContinuing({ messages: messages.slice(0, 4) });
 * const next = decodeAiSdkPromptContinuing({ messages: messages.slice(4) }, first.callIds);
 * ```
 */
export function decodeAiSdkPromptContinuing(input: unknown, callIds?: UniqueCallIds): ContinuingDecodeResult {
  const ids = callIds === undefined ? createUniqueCallIds() : callIds.copy();
  return { ...decodeAiSdkPrompt(parseAiSdkPrompt(input), ids), callIds: ids };
}
