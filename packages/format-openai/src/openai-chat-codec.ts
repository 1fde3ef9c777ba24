import type { ConversationCodec } from '@ctx/core';
import { decodeOpenAIRequest } from './decode-openai-request.js';
import { encodeOpenAIRequest } from './encode-openai-request.js';
import type { OpenAIChatRequest } from './openai-chat-request-schema.js';

/**
 * The OpenAI Chat Completions codec (`format: 'openai-chat'`): converts `{ messages, tools? }` to a canonical
 * conversation and back.
 *
 * Mapping:
 * - Leading `system` / `developer` messages ↔ `conversation.system` (one text block per string or text part; the
 *   first block of each message remembers its role, fields and form). A `system` / `developer` message later in
 *   the conversation becomes a `human` entry marked `providerMetadata.openai.role`, so it comes back in place;
 *   other formats write it as user text and warn that `openai.role` was dropped.
 * - `user` → `human` entry: `text`, `image_url` (a base64 data URL becomes inline data), `input_audio` and inline
 *   `file` parts → `text` / `media` blocks.
 * - `assistant` → `ai` entry: text and `refusal` parts, the `refusal` field, then `tool_calls` and the legacy
 *   `function_call` → `tool_call` blocks. `arguments` comes back byte-identical: `parameters` is the parsed JSON
 *   when it parses, else the raw string, and the raw string is kept whenever writing the parameters again would
 *   give other bytes (spacing, key order, number forms).
 * - `tool` → `tool` entry with one `tool_response` (`toolName` from the matching call, `content` → `result`);
 *   legacy `function` → `tool` entry answering the `function_call` before it. SWE-agent's `tool_call_ids` in
 *   place of `tool_call_id` is read too.
 * - A tool call id an earlier call already had (providers that number calls per turn) → `<id>_2`, `<id>_3`, … for
 *   the call and the tool messages answering it, so the history pairs them; the request's id is written back.
 * - Unknown fields on a message (trajectory files add `thought`, `action`, `agent`, `message_type`, …) are kept
 *   untouched in `providerMetadata.openai.message`; unknown content parts stay opaque (`unsupported` warning).
 *
 * `decode` validates its input and throws `InvalidFormatError` (from `@ctx/core`) naming every failing path, e.g.
 * `messages[1].tool_calls[0].function.arguments`; it never writes to its input.
 * `encode(decode(x).conversation).value` deep-equals `x`. Encoding a conversation from another format gives a
 * request that passes {@link validateOpenAIRequest} when the history is pair-valid: consecutive `ai` entries
 * become one assistant message (so tool messages follow their calls), and every loss is a warning: thinking,
 * attachments assistant or tool messages cannot hold, the error flag of tool results, other providers' metadata,
 * and lone UTF-16 surrogate halves, which the API rejects and `encode` replaces with U+FFFD in any string (so a
 * decoded request holding them does not round-trip exactly).
 *
 * @example
 * ```ts
 * const { conversation } = openAIChatCodec.decode({ messages, tools });
 * // … compress conversation.history …
 * const { value } = openAIChatCodec.encode({ ...conversation, history: compressed });
 * await client.chat.completions.create({ model: 'gpt-4.1', ...value });
 * ```
 */
export const openAIChatCodec: ConversationCodec<OpenAIChatRequest> = Object.freeze({
  specificationVersion: 'v1',
  format: 'openai-chat',
  decode: decodeOpenAIRequest,
  encode: encodeOpenAIRequest,
});
