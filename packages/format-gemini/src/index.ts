export { createGeminiCodec, geminiCodec, type GeminiCodecOptions } from './gemini-codec.js';
export type { GeminiEncodeOptions } from './encode-gemini-request.js';
export { GEMINI_METADATA_KEY } from './gemini-provider-metadata.js';
export {
  GEMINI_CONTENT_FORMAT,
  geminiBlobSchema,
  geminiContentSchema,
  geminiFileDataSchema,
  geminiFunctionCallSchema,
  geminiFunctionDeclarationSchema,
  geminiFunctionResponseSchema,
  geminiPartDataFields,
  geminiPartSchema,
  geminiRequestSchema,
  geminiToolSchema,
  parseGeminiRequest,
  type GeminiBlob,
  type GeminiCodeExecutionResult,
  type GeminiContent,
  type GeminiExecutableCode,
  type GeminiFileData,
  type GeminiFunctionCall,
  type GeminiFunctionDeclaration,
  type GeminiFunctionResponse,
  type GeminiJsonObject,
  type GeminiPart,
  type GeminiRequest,
  type GeminiSystemInstruction,
  type GeminiTool,
} from './gemini-request.js';
export { validateGeminiRequest } from './validate-gemini-request.js';
