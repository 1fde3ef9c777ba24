import type { ConversationCodec } from '@ctx/core';
import { decodeGeminiRequest } from './decode-gemini-request.js';
import { encodeGeminiRequest, type GeminiEncodeOptions } from './encode-gemini-request.js';
import { GEMINI_CONTENT_FORMAT, parseGeminiRequest, type GeminiRequest } from './gemini-request.js';

/** Options of {@link createGeminiCodec}. */
export type GeminiCodecOptions = GeminiEncodeOptions;

/**
 * Creates the codec between the Gemini API `generateContent` request body (`v1beta` REST JSON: `systemInstruction`,
 * `contents`, `tools`, and request settings carried untouched) and the canonical conversation.
 *
 * Mapping:
 * - `model` content → `ai` entry: `text` → text, `text` + `thought: true` → thinking (its `thoughtSignature` is the
 *   signature), `functionCall` → tool_call, `inlineData` / `fileData` → media. `executableCode` and
 *   `codeExecutionResult` have no canonical block: they travel as text kept opaque (warning `unsupported`).
 * - `user` content → `human` entry; its `functionResponse` parts → a `tool` entry placed first (the rest, if any,
 *   follows as a human entry and is merged back, in the original part order, on encode). `response` `{ output }` →
 *   the result, `{ error }` → the result with `isError`, any other object → the result as a whole.
 * - Function calls without `id` get a deterministic id (`gemini-call-<content>-<part>`) and remember that they had
 *   none, so encode omits it again. Responses pair with calls of the model turn right before them by id, else by
 *   name in call order (parallel calls of one function are answered in order).
 * - Encoding merges consecutive `ai` entries into one model content and the `tool` entries after them into one user
 *   content (Gemini counts responses against calls per content); human entries stay separate contents.
 * - Everything else a round trip needs (absent ids and args, part extras such as `thoughtSignature`,
 *   `partMetadata`, content boundaries, built-in tools, `generationConfig` and the other request settings) is kept
 *   under `providerMetadata.gemini`.
 *
 * `decode` throws `InvalidFormatError` (from `@ctx/core`) naming every failing path; it never modifies its input.
 * `encode(decode(x).conversation).value` deep-equals `x`. Encoding a conversation from another format warns once per
 * kind of loss (e.g. another provider's thinking signatures, entry metadata, file names).
 *
 * @param options - See {@link GeminiEncodeOptions}.
 * @returns A `ConversationCodec` with format `gemini-content`.
 *
 * @example
 * ```ts
 * const codec = createGeminiCodec({ unsignedFunctionCallSignature: 'skip_thought_signature_validator' });
 * const { conversation } = codec.decode(requestBody);
 * const { value, warnings } = codec.encode(compressedConversation);
 * await fetch(url, { method: 'POST', body: JSON.stringify(value) });
 * ```
 */
export function createGeminiCodec(options: GeminiCodecOptions = {}): ConversationCodec<GeminiRequest> {
  return {
    specificationVersion: 'v1',
    format: GEMINI_CONTENT_FORMAT,
    decode: (input) => decodeGeminiRequest(parseGeminiRequest(input)),
    encode: (conversation) => encodeGeminiRequest(conversation, options),
  };
}

/**
 * The Gemini codec with default options (see {@link createGeminiCodec}).
 *
 * @example
 * ```ts
 * const { conversation, warnings } = geminiCodec.decode({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
 * ```
 */
export const geminiCodec: ConversationCodec<GeminiRequest> = createGeminiCodec();
