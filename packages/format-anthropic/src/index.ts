export { anthropicMessagesCodec } from './anthropic-messages-codec.js';
export { createAnthropicRequestDecoder, type AnthropicRequestDecoder } from './anthropic-request-decoder.js';
export {
  anthropicContentBlockSchema,
  anthropicMessageSchema,
  anthropicRequestSchema,
  anthropicToolSchema,
  type AnthropicContentBlockParam,
  type AnthropicDocumentBlockParam,
  type AnthropicImageBlockParam,
  type AnthropicMessageParam,
  type AnthropicOpaqueBlockParam,
  type AnthropicRedactedThinkingBlockParam,
  type AnthropicRequest,
  type AnthropicTextBlockParam,
  type AnthropicThinkingBlockParam,
  type AnthropicToolParam,
  type AnthropicToolResultBlockParam,
  type AnthropicToolUseBlockParam,
} from './anthropic-request-schema.js';
export {
  validateAnthropicRequest,
  type AnthropicRequestProblem,
  type AnthropicRequestRule,
  type ValidateAnthropicRequestOptions,
} from './validate-anthropic-request.js';
