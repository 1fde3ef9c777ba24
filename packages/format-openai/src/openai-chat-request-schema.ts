import { jsonValueSchema, type JsonValue } from '@ctx/core';
import { z } from 'zod';

/*
 * The OpenAI Chat Completions request, as far as ctx reads it. Every object accepts keys it does not know (kept as
 * JSON: trajectory files add `thought`, `action`, `agent`, `message_type`, … to messages, and they must come back
 * exactly); the keys ctx interprets are checked strictly, so a broken message is reported where it breaks, e.g.
 * `messages[3].tool_calls[0].function.arguments`. The provider's own rules (tool pairing, roles of content parts,
 * extra fields) are checked by `validateOpenAIRequest`, not here.
 */

const typedObjectSchema = z.object({ type: z.string() }).catchall(jsonValueSchema);
const nonEmpty = (what: string) => z.string().min(1, `Expected a non-empty ${what}`);

const textPartSchema = z.object({ type: z.literal('text'), text: z.string() }).catchall(jsonValueSchema);
const imagePartSchema = z
  .object({
    type: z.literal('image_url'),
    image_url: z.object({ url: z.string(), detail: z.string().optional() }).catchall(jsonValueSchema),
  })
  .catchall(jsonValueSchema);
const audioPartSchema = z
  .object({
    type: z.literal('input_audio'),
    input_audio: z.object({ data: z.string(), format: z.string() }).catchall(jsonValueSchema),
  })
  .catchall(jsonValueSchema);
const filePartSchema = z
  .object({
    type: z.literal('file'),
    file: z
      .object({ file_data: z.string().optional(), file_id: z.string().optional(), filename: z.string().optional() })
      .catchall(jsonValueSchema),
  })
  .catchall(jsonValueSchema);
const refusalPartSchema = z.object({ type: z.literal('refusal'), refusal: z.string() }).catchall(jsonValueSchema);

/** A text part. */
export type OpenAITextPart = z.infer<typeof textPartSchema>;
/** An image part: a web URL or a base64 data URL, with an optional `detail`. */
export type OpenAIImagePart = z.infer<typeof imagePartSchema>;
/** An audio part: base64 `data` and its `format` (`wav`, `mp3`). */
export type OpenAIAudioPart = z.infer<typeof audioPartSchema>;
/** A file part: inline `file_data` (a data URL) with a `filename`, or an uploaded `file_id`. */
export type OpenAIFilePart = z.infer<typeof filePartSchema>;
/** A refusal part of an assistant message. */
export type OpenAIRefusalPart = z.infer<typeof refusalPartSchema>;
/** A part ctx has no canonical form for (a type newer than this package); it comes back unchanged. */
export interface OpenAIOpaquePart {
  readonly type: string;
  readonly [key: string]: JsonValue;
}
/** One part of a message's `content` array. */
export type OpenAIContentPart =
  | OpenAITextPart
  | OpenAIImagePart
  | OpenAIAudioPart
  | OpenAIFilePart
  | OpenAIRefusalPart
  | OpenAIOpaquePart;

const knownPartSchemas: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ['text', textPartSchema],
  ['image_url', imagePartSchema],
  ['input_audio', audioPartSchema],
  ['file', filePartSchema],
  ['refusal', refusalPartSchema],
]);

/**
 * Schema of one content part. Known types are checked field by field; any other `type` is accepted as an opaque
 * part (decoded with an `unsupported` warning) instead of failing the whole request.
 */
export const openAIContentPartSchema = typedObjectSchema.superRefine((part, context) => {
  const schema = knownPartSchemas.get(part.type);
  if (schema === undefined) return;
  const result = schema.safeParse(part);
  if (result.success) return;
  for (const issue of result.error.issues) {
    context.addIssue({ code: 'custom', message: issue.message, path: issue.path, input: part });
  }
}) as unknown as z.ZodType<OpenAIContentPart>;

const contentSchema = z.union([z.string(), z.array(openAIContentPartSchema)]);

const functionToolCallSchema = z
  .object({
    id: nonEmpty('tool call id'),
    type: z.literal('function'),
    function: z.object({ name: nonEmpty('function name'), arguments: z.string() }).catchall(jsonValueSchema),
  })
  .catchall(jsonValueSchema);
const customToolCallSchema = z
  .object({
    id: nonEmpty('tool call id'),
    type: z.literal('custom'),
    custom: z.object({ name: nonEmpty('tool name'), input: z.string() }).catchall(jsonValueSchema),
  })
  .catchall(jsonValueSchema);

/** A tool call of an assistant message: a function call (`arguments` is a JSON string) or a custom tool call. */
export const openAIToolCallSchema = z.discriminatedUnion('type', [functionToolCallSchema, customToolCallSchema]);
/** A tool call of an assistant message. */
export type OpenAIToolCall = z.infer<typeof openAIToolCallSchema>;
/** A function tool call. */
export type OpenAIFunctionToolCall = z.infer<typeof functionToolCallSchema>;
/** A custom tool call (free-form `input`). */
export type OpenAICustomToolCall = z.infer<typeof customToolCallSchema>;

const instructionMessage = <Role extends 'system' | 'developer' | 'user'>(role: Role) =>
  z.object({ role: z.literal(role), content: contentSchema, name: z.string().optional() }).catchall(jsonValueSchema);

const systemMessageSchema = instructionMessage('system');
const developerMessageSchema = instructionMessage('developer');
const userMessageSchema = instructionMessage('user');
const assistantMessageSchema = z
  .object({
    role: z.literal('assistant'),
    content: contentSchema.nullable().optional(),
    tool_calls: z.array(openAIToolCallSchema).optional(),
    function_call: z
      .object({ name: nonEmpty('function name'), arguments: z.string() })
      .catchall(jsonValueSchema)
      .nullable()
      .optional(),
    refusal: z.string().nullable().optional(),
    name: z.string().optional(),
  })
  .catchall(jsonValueSchema);
const toolMessageSchema = z
  .object({
    role: z.literal('tool'),
    content: contentSchema,
    tool_call_id: nonEmpty('tool_call_id').optional(),
    // SWE-agent trajectories name the answered call in a list instead of `tool_call_id`.
    tool_call_ids: z.array(nonEmpty('tool call id')).min(1).optional(),
  })
  .catchall(jsonValueSchema)
  .refine((message) => message.tool_call_id !== undefined || message.tool_call_ids !== undefined, {
    message: 'Expected the tool_call_id of the tool call this message answers',
    path: ['tool_call_id'],
  });
const functionMessageSchema = z
  .object({ role: z.literal('function'), name: nonEmpty('function name'), content: z.string().nullable() })
  .catchall(jsonValueSchema);

/** A `system` message. */
export type OpenAISystemMessage = z.infer<typeof systemMessageSchema>;
/** A `developer` message (replaces `system` for reasoning models). */
export type OpenAIDeveloperMessage = z.infer<typeof developerMessageSchema>;
/** A `user` message. */
export type OpenAIUserMessage = z.infer<typeof userMessageSchema>;
/** An `assistant` message: content, tool calls, legacy `function_call`, `refusal`. */
export type OpenAIAssistantMessage = z.infer<typeof assistantMessageSchema>;
/** A `tool` message answering one tool call. */
export type OpenAIToolMessage = z.infer<typeof toolMessageSchema>;
/** A legacy `function` message answering a `function_call`. */
export type OpenAIFunctionMessage = z.infer<typeof functionMessageSchema>;

/** Schema of one message, discriminated by `role`. Extra fields are accepted and kept. */
export const openAIMessageSchema = z.discriminatedUnion('role', [
  systemMessageSchema,
  developerMessageSchema,
  userMessageSchema,
  assistantMessageSchema,
  toolMessageSchema,
  functionMessageSchema,
]);

/** A message of the request (`ChatCompletionMessageParam`). */
export type OpenAIMessage = z.infer<typeof openAIMessageSchema>;

const functionToolSchema = z
  .object({
    type: z.literal('function'),
    function: z
      .object({
        name: nonEmpty('function name'),
        description: z.string().optional(),
        parameters: jsonValueSchema.optional(),
      })
      .catchall(jsonValueSchema),
  })
  .catchall(jsonValueSchema);
const customToolSchema = z
  .object({
    type: z.literal('custom'),
    custom: z.object({ name: nonEmpty('tool name'), description: z.string().optional() }).catchall(jsonValueSchema),
  })
  .catchall(jsonValueSchema);

/** Schema of one tool definition: a function (JSON Schema `parameters`) or a custom tool. */
export const openAIToolSchema = z.discriminatedUnion('type', [functionToolSchema, customToolSchema]);

/** A tool definition of the request (`ChatCompletionTool`). */
export type OpenAITool = z.infer<typeof openAIToolSchema>;

/**
 * Schema of the request-like value the codec reads and writes: `{ messages, tools? }`. Other request parameters
 * (`model`, `temperature`, `tool_choice`, …) are accepted and round-trip unchanged.
 */
export const openAIChatRequestSchema = z
  .object({ messages: z.array(openAIMessageSchema), tools: z.array(openAIToolSchema).optional() })
  .catchall(jsonValueSchema);

/** The OpenAI Chat Completions request (or the part of it that holds the conversation). */
export type OpenAIChatRequest = z.infer<typeof openAIChatRequestSchema>;
