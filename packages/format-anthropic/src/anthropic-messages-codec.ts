import type { ConversationCodec } from '@ctx/core';
import type { AnthropicRequest } from './anthropic-request-schema.js';
import { decodeAnthropicRequest } from './decode-anthropic-request.js';
import { encodeAnthropicRequest } from './encode-anthropic-request.js';

/**
 * The Anthropic Messages codec (`format: 'anthropic-messages'`): converts `{ system?, messages, tools? }` to a
 * canonical conversation and back.
 *
 * Mapping:
 * - `assistant` message → one `ai` entry: `text`, `thinking` (signature byte-identical), `redacted_thinking`
 *   (`redacted: true`), `tool_use` (`input` → `parameters`), images and documents → `media`.
 * - `user` message → its `tool_result` blocks form a `tool` entry (`toolName` from the matching `tool_use`,
 *   `content` → `result`, `is_error` → `isError`) and its other blocks a `human` entry right after it; encoding
 *   merges them back into one message in the original block order.
 * - A `tool_use` id an earlier `tool_use` already had → `<id>_2`, `<id>_3`, … for the tool use and the results
 *   answering it, so the history pairs them (`malformed` warning); the request's id is written back.
 * - `system` ↔ `conversation.system`; `tools` ↔ `conversation.tools` (`input_schema` ↔ `inputSchema`).
 * - Response `Message` fields on a message (`id`, `model`, `stop_reason`, `usage`, …) round-trip; `id`, `model`
 *   and `usage` are also read into the entry's metadata.
 * - Fields without a canonical place (`cache_control`, `citations`, `caller`, …) are kept in
 *   `providerMetadata.anthropic`. Server-tool blocks (`server_tool_use`, `web_search_tool_result`, …) and other
 *   unknown blocks are kept opaque, with an `unsupported` warning.
 *
 * `decode` validates its input and throws `InvalidFormatError` (from `@ctx/core`) naming every failing path, e.g.
 * `messages[3].content[0].tool_use_id`; it never writes to its input. `encode(decode(x).conversation).value`
 * deep-equals `x`. Encoding a conversation from another format gives a
 * request that passes {@link validateAnthropicRequest} when the history is pair-valid and starts with a user turn:
 * same-role entries merge, tool results come first in their user message, blank text blocks are dropped, and a
 * final assistant message loses its trailing whitespace. Every loss is a warning: unsigned thinking, attachments
 * other than images and PDFs, other providers' metadata, and lone UTF-16 surrogate halves, which the API rejects
 * and `encode` replaces with U+FFFD in any string (so a decoded request holding them does not round-trip exactly).
 *
 * @example
 * ```ts
 * const { conversation, warnings } = anthropicMessagesCodec.decode({ system, messages, tools });
 * // … compress conversation.history …
 * const { value } = anthropicMessagesCodec.encode({ ...conversation, history: compressed });
 * await client.messages.create({ model, max_tokens: 1024, ...value });
 * ```
 */
export const anthropicMessagesCodec: ConversationCodec<AnthropicRequest> = Object.freeze({
  specificationVersion: 'v1',
  format: 'anthropic-messages',
  decode: decodeAnthropicRequest,
  encode: encodeAnthropicRequest,
});
