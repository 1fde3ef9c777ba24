import { jsonValueSchema, type JsonObject, type JsonValue } from '@ctx/core';
import { parseNativeValue } from '@ctx/format-utils';
import { z } from 'zod';

/*
 * The request body of the Gemini API `models.generateContent` method (REST, `v1beta`, as documented in 2025–2026,
 * Gemini 2.5 / 3 era): `systemInstruction`, `contents`, `tools`, plus the request-level settings ctx carries
 * untouched. Field names are the REST JSON (camelCase) names; the same shape is what `@google/genai` sends.
 * Schemas are strict: a key the API does not define is reported, so a round trip can never drop it silently.
 */

/** The codec's format id. */
export const GEMINI_CONTENT_FORMAT = 'gemini-content';

/** A JSON object, e.g. a `google.protobuf.Struct` such as function call arguments (core's `JsonObject`). */
export type GeminiJsonObject = JsonObject;

/** Inline bytes (`Blob`): base64 `data` of a `mimeType`. `displayName` exists on Vertex AI only. */
export interface GeminiBlob {
  readonly mimeType: string;
  readonly data: string;
  readonly displayName?: string;
}

/** A file by URI (`FileData`), e.g. a Files API URI or `gs://` object. `displayName` exists on Vertex AI only. */
export interface GeminiFileData {
  readonly mimeType?: string;
  readonly fileUri: string;
  readonly displayName?: string;
}

/** A function call predicted by the model. `id` is optional: the Gemini API often omits it. */
export interface GeminiFunctionCall {
  readonly id?: string;
  readonly name: string;
  readonly args?: GeminiJsonObject;
}

/**
 * The result of a function call. By API convention `response` holds `{ output }` on success and `{ error }` on
 * failure; any other object is the output as a whole.
 */
export interface GeminiFunctionResponse {
  readonly id?: string;
  readonly name: string;
  readonly response: GeminiJsonObject;
  /** Multimodal function response parts (Gemini 3). Kept untouched. */
  readonly parts?: readonly JsonValue[];
  readonly willContinue?: boolean;
  readonly scheduling?: 'SCHEDULING_UNSPECIFIED' | 'SILENT' | 'WHEN_IDLE' | 'INTERRUPT';
}

/** Code the model generated for the code execution tool. ctx keeps it opaque. */
export interface GeminiExecutableCode {
  readonly language: string;
  readonly code: string;
}

/** The result of running {@link GeminiExecutableCode}. ctx keeps it opaque. */
export interface GeminiCodeExecutionResult {
  readonly outcome: string;
  readonly output?: string;
}

/**
 * One part of a content. Exactly one data field is set: `text`, `inlineData`, `fileData`, `functionCall`,
 * `functionResponse`, `executableCode` or `codeExecutionResult`. `thought: true` marks a thought summary;
 * `thoughtSignature` (base64) may sit on any part and must be sent back verbatim.
 */
export interface GeminiPart {
  readonly text?: string;
  readonly inlineData?: GeminiBlob;
  readonly fileData?: GeminiFileData;
  readonly functionCall?: GeminiFunctionCall;
  readonly functionResponse?: GeminiFunctionResponse;
  readonly executableCode?: GeminiExecutableCode;
  readonly codeExecutionResult?: GeminiCodeExecutionResult;
  readonly thought?: boolean;
  readonly thoughtSignature?: string;
  readonly partMetadata?: GeminiJsonObject;
  readonly videoMetadata?: GeminiJsonObject;
  readonly mediaResolution?: JsonValue;
}

/** One turn of the conversation. `role` may be omitted, which the API reads as `user`. */
export interface GeminiContent {
  readonly role?: 'user' | 'model';
  readonly parts: readonly GeminiPart[];
}

/** The system instruction: a content of text parts. Its `role` is ignored by the API and kept as given. */
export interface GeminiSystemInstruction {
  readonly role?: string;
  readonly parts: readonly GeminiPart[];
}

/** A function the model may call. `parameters` is the OpenAPI-subset schema; `parametersJsonSchema` is JSON Schema. */
export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description?: string;
  readonly behavior?: 'UNSPECIFIED' | 'BLOCKING' | 'NON_BLOCKING';
  readonly parameters?: JsonValue;
  readonly parametersJsonSchema?: JsonValue;
  readonly response?: JsonValue;
  readonly responseJsonSchema?: JsonValue;
}

/** One entry of `tools`. Built-in tools (search, code execution, …) are kept untouched. */
export interface GeminiTool {
  readonly functionDeclarations?: readonly GeminiFunctionDeclaration[];
  readonly googleSearch?: GeminiJsonObject;
  readonly googleSearchRetrieval?: GeminiJsonObject;
  readonly codeExecution?: GeminiJsonObject;
  readonly urlContext?: GeminiJsonObject;
  readonly fileSearch?: GeminiJsonObject;
  readonly googleMaps?: GeminiJsonObject;
  readonly computerUse?: GeminiJsonObject;
  readonly retrieval?: GeminiJsonObject;
  readonly enterpriseWebSearch?: GeminiJsonObject;
}

/** The `generateContent` request body ctx reads and writes. Request-level settings are carried untouched. */
export interface GeminiRequest {
  readonly systemInstruction?: GeminiSystemInstruction;
  readonly contents: readonly GeminiContent[];
  readonly tools?: readonly GeminiTool[];
  readonly toolConfig?: GeminiJsonObject;
  readonly generationConfig?: GeminiJsonObject;
  readonly safetySettings?: readonly JsonValue[];
  readonly cachedContent?: string;
  readonly labels?: GeminiJsonObject;
}

const jsonObjectSchema = z.record(z.string(), jsonValueSchema);

/** Schema of a {@link GeminiBlob}. */
export const geminiBlobSchema = z.strictObject({
  mimeType: z.string().min(1, 'Expected a MIME type such as image/png'),
  data: z.string(),
  displayName: z.string().optional(),
}) satisfies z.ZodType<GeminiBlob>;

/** Schema of a {@link GeminiFileData}. */
export const geminiFileDataSchema = z.strictObject({
  mimeType: z.string().min(1, 'Expected a MIME type such as application/pdf').optional(),
  fileUri: z.string(),
  displayName: z.string().optional(),
}) satisfies z.ZodType<GeminiFileData>;

/** Schema of a {@link GeminiFunctionCall}. */
export const geminiFunctionCallSchema = z.strictObject({
  id: z.string().optional(),
  name: z.string().min(1, 'Expected a non-empty function name'),
  args: jsonObjectSchema.optional(),
}) satisfies z.ZodType<GeminiFunctionCall>;

/** Schema of a {@link GeminiFunctionResponse}. */
export const geminiFunctionResponseSchema = z.strictObject({
  id: z.string().optional(),
  name: z.string().min(1, 'Expected a non-empty function name'),
  response: jsonObjectSchema,
  parts: z.array(jsonValueSchema).optional(),
  willContinue: z.boolean().optional(),
  scheduling: z.enum(['SCHEDULING_UNSPECIFIED', 'SILENT', 'WHEN_IDLE', 'INTERRUPT']).optional(),
}) satisfies z.ZodType<GeminiFunctionResponse>;

/** The part fields of which exactly one is set (the API's `data` union). */
export const geminiPartDataFields = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
] as const;

/** Schema of a {@link GeminiPart}, including the one-data-field rule. */
export const geminiPartSchema = z
  .strictObject({
    text: z.string().optional(),
    inlineData: geminiBlobSchema.optional(),
    fileData: geminiFileDataSchema.optional(),
    functionCall: geminiFunctionCallSchema.optional(),
    functionResponse: geminiFunctionResponseSchema.optional(),
    executableCode: z.strictObject({ language: z.string(), code: z.string() }).optional(),
    codeExecutionResult: z.strictObject({ outcome: z.string(), output: z.string().optional() }).optional(),
    thought: z.boolean().optional(),
    thoughtSignature: z.string().optional(),
    partMetadata: jsonObjectSchema.optional(),
    videoMetadata: jsonObjectSchema.optional(),
    mediaResolution: jsonValueSchema.optional(),
  })
  .superRefine((part, context) => {
    const present = geminiPartDataFields.filter((field) => part[field] !== undefined);
    if (present.length !== 1) {
      context.addIssue({
        code: 'custom',
        message:
          present.length === 0
            ? `Expected exactly one of ${geminiPartDataFields.join(', ')}, found none`
            : `Expected exactly one of ${geminiPartDataFields.join(', ')}, found ${present.join(' and ')}`,
      });
    }
  }) satisfies z.ZodType<GeminiPart>;

/** Schema of a {@link GeminiContent}. */
export const geminiContentSchema = z.strictObject({
  role: z.enum(['user', 'model']).optional(),
  parts: z.array(geminiPartSchema),
}) satisfies z.ZodType<GeminiContent>;

/** Schema of a {@link GeminiFunctionDeclaration}. */
export const geminiFunctionDeclarationSchema = z.strictObject({
  name: z.string().min(1, 'Expected a non-empty function name'),
  description: z.string().optional(),
  behavior: z.enum(['UNSPECIFIED', 'BLOCKING', 'NON_BLOCKING']).optional(),
  parameters: jsonValueSchema.optional(),
  parametersJsonSchema: jsonValueSchema.optional(),
  response: jsonValueSchema.optional(),
  responseJsonSchema: jsonValueSchema.optional(),
}) satisfies z.ZodType<GeminiFunctionDeclaration>;

/** Schema of a {@link GeminiTool}. */
export const geminiToolSchema = z.strictObject({
  functionDeclarations: z.array(geminiFunctionDeclarationSchema).optional(),
  googleSearch: jsonObjectSchema.optional(),
  googleSearchRetrieval: jsonObjectSchema.optional(),
  codeExecution: jsonObjectSchema.optional(),
  urlContext: jsonObjectSchema.optional(),
  fileSearch: jsonObjectSchema.optional(),
  googleMaps: jsonObjectSchema.optional(),
  computerUse: jsonObjectSchema.optional(),
  retrieval: jsonObjectSchema.optional(),
  enterpriseWebSearch: jsonObjectSchema.optional(),
}) satisfies z.ZodType<GeminiTool>;

/** Schema of a {@link GeminiRequest}. Structure only; the conversation rules are {@link validateGeminiRequest}'s. */
export const geminiRequestSchema = z.strictObject({
  systemInstruction: z
    .strictObject({
      role: z.string().optional(),
      parts: z.array(geminiPartSchema),
    })
    .optional(),
  contents: z.array(geminiContentSchema),
  tools: z.array(geminiToolSchema).optional(),
  toolConfig: jsonObjectSchema.optional(),
  generationConfig: jsonObjectSchema.optional(),
  safetySettings: z.array(jsonValueSchema).optional(),
  cachedContent: z.string().optional(),
  labels: jsonObjectSchema.optional(),
}) satisfies z.ZodType<GeminiRequest>;

/**
 * Checks that a value has the shape of a Gemini `generateContent` request body.
 *
 * @param input - Anything, e.g. parsed JSON.
 * @returns The same value, typed (not copied: the schema's defaults-free parse would only duplicate it).
 * @throws `InvalidFormatError` (from `@ctx/core`) naming every failing path, e.g. `contents[2].parts[0]`.
 *
 * @example
 * ```ts
 * const request = parseGeminiRequest(JSON.parse(body));
 * console.log(request.contents.length);
 * ```
 */
export function parseGeminiRequest(input: unknown): GeminiRequest {
  return parseNativeValue(geminiRequestSchema, input, { format: GEMINI_CONTENT_FORMAT });
}
