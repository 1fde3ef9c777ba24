import { isJsonValue, jsonValueSchema, type JsonValue } from '@ctx/core';
import { parseNativeValue, type SchemaIssueOptions } from '@ctx/format-utils';
import { z } from 'zod';

/*
 * The Vercel AI SDK `ModelMessage` types of AI SDK 5 (`ai@5.x`, package `@ai-sdk/provider-utils` 3.x), which AI SDK 6
 * and 7 keep, plus their additions: tool outputs (`execution-denied`, `providerOptions` on outputs, the `file`,
 * `file-*`, `image-*` and `custom` content items) and the tool approval parts (`tool-approval-request` in assistant
 * content, `tool-approval-response` in tool content), and AI SDK 7's `custom` and `reasoning-file` assistant parts.
 * Not supported: AI SDK 7's tagged file data (`{ type: 'data' | 'url' | 'reference' | 'text', … }`); decode reports it.
 * Schemas are strict: a key the types do not define is reported, so a round trip can never drop it silently.
 * Type-level tests (`ai-sdk-model-message.test-d.ts`) check these types against the real `ai` packages.
 */

/** The codec's format id. */
export const AI_SDK_MODEL_MESSAGES_FORMAT = 'ai-sdk-model-messages';

/** Provider-specific options on a message or part (`ProviderOptions`), e.g. `{ anthropic: { cacheControl: … } }`. */
export type AiSdkProviderOptions = { readonly [provider: string]: { readonly [key: string]: JsonValue } };

/**
 * Binary content (`DataContent | URL`): a base64 string, a URL string, bytes, or a `URL`. ctx reads a string that
 * parses as an absolute URL as a URL, like the AI SDK does.
 */
export type AiSdkDataContent = string | Uint8Array | ArrayBuffer | URL;

/** `TextPart`. */
export interface AiSdkTextPart {
  readonly type: 'text';
  readonly text: string;
  readonly providerOptions?: AiSdkProviderOptions;
}

/** `ImagePart` (user messages). */
export interface AiSdkImagePart {
  readonly type: 'image';
  readonly image: AiSdkDataContent;
  readonly mediaType?: string;
  readonly providerOptions?: AiSdkProviderOptions;
}

/** `FilePart` (user and assistant messages). */
export interface AiSdkFilePart {
  readonly type: 'file';
  readonly data: AiSdkDataContent;
  readonly filename?: string;
  readonly mediaType: string;
  readonly providerOptions?: AiSdkProviderOptions;
}

/**
 * `ReasoningFilePart` (AI SDK 7): a file the model produced while reasoning. Decoded as a media block of the ai entry
 * and encoded back as a reasoning file.
 */
export interface AiSdkReasoningFilePart {
  readonly type: 'reasoning-file';
  readonly data: AiSdkDataContent;
  readonly mediaType: string;
  readonly providerOptions?: AiSdkProviderOptions;
}

/**
 * `CustomPart` (AI SDK 7): provider-specific assistant content (`kind` is `{provider}.{type}`, e.g.
 * `openai.compaction`). It has no canonical block: decode keeps it verbatim in the entry's metadata, at its place
 * among the other parts, and encode puts it back there.
 */
export interface AiSdkCustomPart {
  readonly type: 'custom';
  readonly kind: `${string}.${string}`;
  readonly providerOptions?: AiSdkProviderOptions;
}

/** `ReasoningPart`. Signatures live in `providerOptions`, e.g. `anthropic.signature` or `anthropic.redactedData`. */
export interface AiSdkReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
  readonly providerOptions?: AiSdkProviderOptions;
}

/** `ToolCallPart`. */
export interface AiSdkToolCallPart {
  readonly type: 'tool-call';
  readonly toolCallId: string;
  readonly toolName: string;
  /** The call's arguments; ctx requires a JSON value. */
  readonly input: JsonValue;
  readonly providerOptions?: AiSdkProviderOptions;
  readonly providerExecuted?: boolean;
}

/** One item of a `content` tool output, e.g. `{ type: 'text', text }` or `{ type: 'media', data, mediaType }`. */
export interface AiSdkToolResultContentItem {
  readonly type:
    | 'text'
    | 'media'
    | 'file-data'
    | 'file-url'
    | 'file-id'
    | 'image-data'
    | 'image-url'
    | 'image-file-id'
    | 'image-file-reference'
    | 'file'
    | 'file-reference'
    | 'custom';
  readonly [key: string]: JsonValue;
}

/** `ToolResultOutput`: what the model sees of a tool's result. */
export type AiSdkToolResultOutput =
  | { readonly type: 'text'; readonly value: string; readonly providerOptions?: AiSdkProviderOptions }
  | { readonly type: 'json'; readonly value: JsonValue; readonly providerOptions?: AiSdkProviderOptions }
  | { readonly type: 'error-text'; readonly value: string; readonly providerOptions?: AiSdkProviderOptions }
  | { readonly type: 'error-json'; readonly value: JsonValue; readonly providerOptions?: AiSdkProviderOptions }
  | { readonly type: 'content'; readonly value: readonly AiSdkToolResultContentItem[] }
  | { readonly type: 'execution-denied'; readonly reason?: string; readonly providerOptions?: AiSdkProviderOptions };

/** `ToolResultPart`. */
export interface AiSdkToolResultPart {
  readonly type: 'tool-result';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly output: AiSdkToolResultOutput;
  readonly providerOptions?: AiSdkProviderOptions;
}

/**
 * `ToolApprovalRequest` (AI SDK 6 and 7): the model's tool call awaits the user's approval. AI SDK 7 adds `reason`
 * and `isAutomatic`.
 */
export interface AiSdkToolApprovalRequestPart {
  readonly type: 'tool-approval-request';
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly signature?: string;
  /** The tool input the approval was asked for; ctx requires a JSON value. */
  readonly inputSchemaInput?: JsonValue;
  readonly reason?: string;
  readonly isAutomatic?: boolean;
}

/**
 * `ToolApprovalResponse` (AI SDK 6 and 7): the user's answer to a {@link AiSdkToolApprovalRequestPart}. The
 * language-model prompt's form of it (`LanguageModelV3ToolApprovalResponsePart`) carries `providerOptions` instead of
 * `providerExecuted`; both are accepted.
 */
export interface AiSdkToolApprovalResponsePart {
  readonly type: 'tool-approval-response';
  readonly approvalId: string;
  readonly approved: boolean;
  readonly reason?: string;
  readonly providerExecuted?: boolean;
  readonly providerOptions?: AiSdkProviderOptions;
}

/** `SystemModelMessage`. */
export interface AiSdkSystemMessage {
  readonly role: 'system';
  readonly content: string;
  readonly providerOptions?: AiSdkProviderOptions;
}

/** `UserModelMessage`. */
export interface AiSdkUserMessage {
  readonly role: 'user';
  readonly content: string | readonly (AiSdkTextPart | AiSdkImagePart | AiSdkFilePart)[];
  readonly providerOptions?: AiSdkProviderOptions;
}

/** `AssistantModelMessage`. Tool results here are those of provider-executed tools. */
export interface AiSdkAssistantMessage {
  readonly role: 'assistant';
  readonly content:
    | string
    | readonly (
        | AiSdkTextPart
        | AiSdkFilePart
        | AiSdkReasoningPart
        | AiSdkReasoningFilePart
        | AiSdkToolCallPart
        | AiSdkToolResultPart
        | AiSdkToolApprovalRequestPart
        | AiSdkCustomPart
      )[];
  readonly providerOptions?: AiSdkProviderOptions;
}

/** `ToolModelMessage`. */
export interface AiSdkToolMessage {
  readonly role: 'tool';
  readonly content: readonly (AiSdkToolResultPart | AiSdkToolApprovalResponsePart)[];
  readonly providerOptions?: AiSdkProviderOptions;
}

/** `ModelMessage`. */
export type AiSdkModelMessage = AiSdkSystemMessage | AiSdkUserMessage | AiSdkAssistantMessage | AiSdkToolMessage;

/** A tool as JSON: what `tool({ description, inputSchema: jsonSchema(inputSchema) })` is built from. */
export interface AiSdkToolDefinition {
  readonly description?: string;
  /** JSON Schema of the input. */
  readonly inputSchema: JsonValue;
  readonly providerOptions?: AiSdkProviderOptions;
}

/** The prompt fields of `generateText` / `streamText`: `system`, `messages` and the tools (as JSON, by name). */
export interface AiSdkPrompt {
  readonly system?: string;
  readonly messages: readonly AiSdkModelMessage[];
  readonly tools?: { readonly [name: string]: AiSdkToolDefinition };
}

/** Schema of {@link AiSdkProviderOptions}. */
export const aiSdkProviderOptionsSchema = z.record(z.string(), z.record(z.string(), jsonValueSchema));
const providerOptions = aiSdkProviderOptionsSchema.optional();

const dataContentSchema = z.union([z.string(), z.instanceof(Uint8Array), z.instanceof(ArrayBuffer), z.instanceof(URL)]);

/** Schema of {@link AiSdkTextPart}. */
export const aiSdkTextPartSchema = z.strictObject({ type: z.literal('text'), text: z.string(), providerOptions });

/** Schema of {@link AiSdkImagePart}. */
export const aiSdkImagePartSchema = z.strictObject({
  type: z.literal('image'),
  image: dataContentSchema,
  mediaType: z.string().min(1, 'Expected a media type such as image/png').optional(),
  providerOptions,
});

/** Schema of {@link AiSdkFilePart}. */
export const aiSdkFilePartSchema = z.strictObject({
  type: z.literal('file'),
  data: dataContentSchema,
  filename: z.string().optional(),
  mediaType: z.string().min(1, 'Expected a media type such as application/pdf'),
  providerOptions,
});

/** Schema of {@link AiSdkReasoningFilePart}. */
export const aiSdkReasoningFilePartSchema = z.strictObject({
  type: z.literal('reasoning-file'),
  data: dataContentSchema,
  mediaType: z.string().min(1, 'Expected a media type such as image/png'),
  providerOptions,
});

/** Schema of {@link AiSdkCustomPart}. */
export const aiSdkCustomPartSchema = z.strictObject({
  type: z.literal('custom'),
  kind: z.custom<`${string}.${string}`>(
    (value) => typeof value === 'string' && /^[^.]+\..+$/.test(value),
    { message: 'Expected a kind such as openai.compaction ({provider}.{type})' },
  ),
  providerOptions,
});

/** Schema of {@link AiSdkReasoningPart}. */
export const aiSdkReasoningPartSchema = z.strictObject({ type: z.literal('reasoning'), text: z.string(), providerOptions });

/** Schema of {@link AiSdkToolCallPart}. */
export const aiSdkToolCallPartSchema = z.strictObject({
  type: z.literal('tool-call'),
  toolCallId: z.string().min(1, 'Expected a non-empty tool call id'),
  toolName: z.string().min(1, 'Expected a non-empty tool name'),
  input: jsonValueSchema,
  providerOptions,
  providerExecuted: z.boolean().optional(),
});

const contentItemTypes: ReadonlySet<unknown> = new Set([
  'text',
  'media',
  'file-data',
  'file-url',
  'file-id',
  'image-data',
  'image-url',
  'image-file-id',
  'image-file-reference',
  'file',
  'file-reference',
  'custom',
]);

const contentItemSchema = z.custom<AiSdkToolResultContentItem>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    contentItemTypes.has((value as { type?: unknown }).type) &&
    isJsonValue(value),
  { message: `Expected a JSON object whose type is one of ${[...contentItemTypes].join(', ')}` },
);

/** Schema of {@link AiSdkToolResultOutput}. */
export const aiSdkToolResultOutputSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), value: z.string(), providerOptions }),
  z.strictObject({ type: z.literal('json'), value: jsonValueSchema, providerOptions }),
  z.strictObject({ type: z.literal('error-text'), value: z.string(), providerOptions }),
  z.strictObject({ type: z.literal('error-json'), value: jsonValueSchema, providerOptions }),
  z.strictObject({ type: z.literal('content'), value: z.array(contentItemSchema) }),
  z.strictObject({ type: z.literal('execution-denied'), reason: z.string().optional(), providerOptions }),
]);

/** Schema of {@link AiSdkToolResultPart}. */
export const aiSdkToolResultPartSchema = z.strictObject({
  type: z.literal('tool-result'),
  toolCallId: z.string().min(1, 'Expected the non-empty id of the tool call this answers'),
  toolName: z.string(),
  output: aiSdkToolResultOutputSchema,
  providerOptions,
});

/** Schema of {@link AiSdkToolApprovalRequestPart}. */
export const aiSdkToolApprovalRequestPartSchema = z.strictObject({
  type: z.literal('tool-approval-request'),
  approvalId: z.string().min(1, 'Expected a non-empty approval id'),
  toolCallId: z.string().min(1, 'Expected the non-empty id of the tool call awaiting approval'),
  signature: z.string().optional(),
  inputSchemaInput: jsonValueSchema.optional(),
  reason: z.string().optional(),
  isAutomatic: z.boolean().optional(),
}) satisfies z.ZodType<AiSdkToolApprovalRequestPart>;

/** Schema of {@link AiSdkToolApprovalResponsePart}. */
export const aiSdkToolApprovalResponsePartSchema = z.strictObject({
  type: z.literal('tool-approval-response'),
  approvalId: z.string().min(1, 'Expected the non-empty id of the approval request this answers'),
  approved: z.boolean(),
  reason: z.string().optional(),
  providerExecuted: z.boolean().optional(),
  providerOptions,
}) satisfies z.ZodType<AiSdkToolApprovalResponsePart>;

/** Schema of {@link AiSdkModelMessage}, discriminated by `role`. */
export const aiSdkModelMessageSchema = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content: z.string(), providerOptions }),
  z.strictObject({
    role: z.literal('user'),
    content: z.union([
      z.string(),
      z.array(z.discriminatedUnion('type', [aiSdkTextPartSchema, aiSdkImagePartSchema, aiSdkFilePartSchema])),
    ]),
    providerOptions,
  }),
  z.strictObject({
    role: z.literal('assistant'),
    content: z.union([
      z.string(),
      z.array(
        z.discriminatedUnion('type', [
          aiSdkTextPartSchema,
          aiSdkFilePartSchema,
          aiSdkReasoningPartSchema,
          aiSdkReasoningFilePartSchema,
          aiSdkToolCallPartSchema,
          aiSdkToolResultPartSchema,
          aiSdkToolApprovalRequestPartSchema,
          aiSdkCustomPartSchema,
        ]),
      ),
    ]),
    providerOptions,
  }),
  z.strictObject({
    role: z.literal('tool'),
    content: z.array(z.discriminatedUnion('type', [aiSdkToolResultPartSchema, aiSdkToolApprovalResponsePartSchema])),
    providerOptions,
  }),
]) satisfies z.ZodType<AiSdkModelMessage>;

/** Schema of {@link AiSdkToolDefinition}. */
export const aiSdkToolDefinitionSchema = z.strictObject({
  description: z.string().optional(),
  inputSchema: jsonValueSchema,
  providerOptions,
}) satisfies z.ZodType<AiSdkToolDefinition>;

/** Schema of {@link AiSdkPrompt}. Structure only; the conversation rules are {@link validateAiSdkMessages}'s. */
export const aiSdkPromptSchema = z.strictObject({
  system: z.string().optional(),
  messages: z.array(aiSdkModelMessageSchema),
  tools: z.record(z.string(), aiSdkToolDefinitionSchema).optional(),
}) satisfies z.ZodType<AiSdkPrompt>;

/**
 * How structural issues are reported: for a union that failed (e.g. content that is neither a string nor a valid part
 * list), the issues of the branch that got furthest into the input, which name the part that is wrong.
 * @internal
 */
export const aiSdkSchemaIssueOptions: SchemaIssueOptions = { unions: 'deepest-branch' };

/**
 * Checks that a value has the shape of AI SDK prompt fields: `{ system?, messages, tools? }`.
 *
 * @param input - Anything, e.g. `{ system, messages: response.messages }`.
 * @returns The same value, typed.
 * @throws `InvalidFormatError` (from `@ctx/core`) naming every failing path, e.g. `messages[2].content[0].output`.
 *
 * @example
 * ```ts
 * const prompt = parseAiSdkPrompt({ messages });
 * ```
 */
export function parseAiSdkPrompt(input: unknown): AiSdkPrompt {
  // The schema has no transforms: the input itself is the typed value, and keeps its `URL` and byte objects.
  return parseNativeValue(aiSdkPromptSchema, input, { format: AI_SDK_MODEL_MESSAGES_FORMAT, ...aiSdkSchemaIssueOptions });
}
