export { openAIChatCodec } from './openai-chat-codec.js';
export { createOpenAIRequestDecoder, type OpenAIRequestDecoder } from './openai-request-decoder.js';
export {
  openAIChatRequestSchema,
  openAIContentPartSchema,
  openAIMessageSchema,
  openAIToolCallSchema,
  openAIToolSchema,
  type OpenAIAssistantMessage,
  type OpenAIAudioPart,
  type OpenAIChatRequest,
  type OpenAIContentPart,
  type OpenAICustomToolCall,
  type OpenAIDeveloperMessage,
  type OpenAIFilePart,
  type OpenAIFunctionMessage,
  type OpenAIFunctionToolCall,
  type OpenAIImagePart,
  type OpenAIMessage,
  type OpenAIOpaquePart,
  type OpenAIRefusalPart,
  type OpenAISystemMessage,
  type OpenAITextPart,
  type OpenAITool,
  type OpenAIToolCall,
  type OpenAIToolMessage,
  type OpenAIUserMessage,
} from './openai-chat-request-schema.js';
export {
  validateOpenAIRequest,
  type OpenAIRequestProblem,
  type OpenAIRequestRule,
  type ValidateOpenAIRequestOptions,
} from './validate-openai-request.js';
