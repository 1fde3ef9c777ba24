import { jsonValueSchema, type JsonValue } from '@ctx/core';
import { z } from 'zod';

/*
 * The Anthropic Messages request, as far as ctx reads it. Every object accepts keys it does not know (kept as JSON,
 * so a round trip carries them unchanged); the keys ctx interprets are checked strictly, so a broken message is
 * reported where it breaks, e.g. `messages[3].content[0].tool_use_id`. The provider's own request rules (roles,
 * tool pairing, limits) are checked by `validateAnthropicRequest`, not here.
 */

/** Any JSON object with a string `type`: cache_control, citations, sources and blocks ctx keeps as they are. */
const typedObjectSchema = z.object({ type: z.string() }).catchall(jsonValueSchema);

const cacheControlSchema = typedObjectSchema.nullable().optional();
const nonEmptyId = (what: string) => z.string().min(1, `Expected a non-empty ${what}`);

const textBlockSchema = z
  .object({
    type: z.literal('text'),
    text: z.string(),
    cache_control: cacheControlSchema,
    citations: z.array(typedObjectSchema).nullable().optional(),
  })
  .catchall(jsonValueSchema);

const base64SourceSchema = z
  .object({ type: z.literal('base64'), media_type: z.string(), data: z.string() })
  .catchall(jsonValueSchema);
const urlSourceSchema = z.object({ type: z.literal('url'), url: z.string() }).catchall(jsonValueSchema);
const fileSourceSchema = z.object({ type: z.literal('file'), file_id: z.string() }).catchall(jsonValueSchema);
const plainTextSourceSchema = z
  .object({ type: z.literal('text'), media_type: z.string(), data: z.string() })
  .catchall(jsonValueSchema);
const contentSourceSchema = z
  .object({ type: z.literal('content'), content: z.union([z.string(), z.array(typedObjectSchema)]) })
  .catchall(jsonValueSchema);

const imageBlockSchema = z
  .object({
    type: z.literal('image'),
    source: z.discriminatedUnion('type', [base64SourceSchema, urlSourceSchema, fileSourceSchema]),
    cache_control: cacheControlSchema,
  })
  .catchall(jsonValueSchema);

const documentBlockSchema = z
  .object({
    type: z.literal('document'),
    source: z.discriminatedUnion('type', [
      base64SourceSchema,
      plainTextSourceSchema,
      urlSourceSchema,
      contentSourceSchema,
      fileSourceSchema,
    ]),
    title: z.string().nullable().optional(),
    context: z.string().nullable().optional(),
    citations: jsonValueSchema.optional(),
    cache_control: cacheControlSchema,
  })
  .catchall(jsonValueSchema);

const toolUseBlockSchema = z
  .object({
    type: z.literal('tool_use'),
    id: nonEmptyId('tool_use id'),
    name: z.string().min(1, 'Expected a non-empty tool name'),
    input: jsonValueSchema,
    cache_control: cacheControlSchema,
  })
  .catchall(jsonValueSchema);

const toolResultBlockSchema = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: nonEmptyId('tool_use_id naming the tool_use this answers'),
    content: z.union([z.string(), z.array(typedObjectSchema)]).optional(),
    is_error: z.boolean().optional(),
    cache_control: cacheControlSchema,
  })
  .catchall(jsonValueSchema);

const thinkingBlockSchema = z
  .object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() })
  .catchall(jsonValueSchema);

const redactedThinkingBlockSchema = z
  .object({ type: z.literal('redacted_thinking'), data: z.string() })
  .catchall(jsonValueSchema);

/** A text block: message text, or one block of the `system` prompt. */
export type AnthropicTextBlockParam = z.infer<typeof textBlockSchema>;
/** An image, inline (`base64`), by `url`, or by uploaded `file` id. */
export type AnthropicImageBlockParam = z.infer<typeof imageBlockSchema>;
/** A document: a PDF (`base64` or `url`), plain text, custom content blocks, or an uploaded file. */
export type AnthropicDocumentBlockParam = z.infer<typeof documentBlockSchema>;
/** A tool invocation made by the assistant. */
export type AnthropicToolUseBlockParam = z.infer<typeof toolUseBlockSchema>;
/** The result of a tool invocation, sent in a user message. */
export type AnthropicToolResultBlockParam = z.infer<typeof toolResultBlockSchema>;
/** Extended thinking; `signature` must come back byte-identical. */
export type AnthropicThinkingBlockParam = z.infer<typeof thinkingBlockSchema>;
/** Thinking the provider encrypted; `data` must come back byte-identical. */
export type AnthropicRedactedThinkingBlockParam = z.infer<typeof redactedThinkingBlockSchema>;

/**
 * A block ctx has no canonical form for (server tool blocks such as `server_tool_use` and
 * `web_search_tool_result`, `search_result`, `container_upload`, and types newer than this package). It is kept
 * as it is and comes back unchanged.
 */
export interface AnthropicOpaqueBlockParam {
  readonly type: string;
  readonly [key: string]: JsonValue;
}

/** One block of a message's `content`. */
export type AnthropicContentBlockParam =
  | AnthropicTextBlockParam
  | AnthropicImageBlockParam
  | AnthropicDocumentBlockParam
  | AnthropicToolUseBlockParam
  | AnthropicToolResultBlockParam
  | AnthropicThinkingBlockParam
  | AnthropicRedactedThinkingBlockParam
  | AnthropicOpaqueBlockParam;

const knownBlockSchemas: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ['text', textBlockSchema],
  ['image', imageBlockSchema],
  ['document', documentBlockSchema],
  ['tool_use', toolUseBlockSchema],
  ['tool_result', toolResultBlockSchema],
  ['thinking', thinkingBlockSchema],
  ['redacted_thinking', redactedThinkingBlockSchema],
]);

/** The block types ctx maps to canonical blocks; every other type is kept opaque. */
export const knownAnthropicBlockTypes: ReadonlySet<string> = new Set(knownBlockSchemas.keys());

/**
 * Schema of one content block. Known types are checked field by field; any other `type` is accepted as an opaque
 * block, so a request using a newer block type still decodes (with an `unsupported` warning) instead of failing.
 */
export const anthropicContentBlockSchema = typedObjectSchema.superRefine((block, context) => {
  const schema = knownBlockSchemas.get(block.type);
  if (schema === undefined) return;
  const result = schema.safeParse(block);
  if (result.success) return;
  for (const issue of result.error.issues) {
    context.addIssue({ code: 'custom', message: issue.message, path: issue.path, input: block });
  }
}) as unknown as z.ZodType<AnthropicContentBlockParam>;

/** Schema of one message. Response `Message` fields (`id`, `model`, `stop_reason`, `usage`, …) are accepted too. */
export const anthropicMessageSchema = z
  .object({
    role: z.enum(['user', 'assistant']),
    content: z.union([z.string(), z.array(anthropicContentBlockSchema)]),
  })
  .catchall(jsonValueSchema);

/** A message of the request: `user` or `assistant`, with string or block content, plus any extra fields. */
export type AnthropicMessageParam = z.infer<typeof anthropicMessageSchema>;

/**
 * Schema of one tool definition: a custom tool (`name`, `description`, `input_schema`) or a server / client tool
 * identified by its versioned `type` (e.g. `web_search_20250305`, `bash_20250124`), whose other fields are kept.
 */
export const anthropicToolSchema = z
  .object({
    name: z.string().min(1, 'Expected a non-empty tool name'),
    description: z.string().optional(),
    input_schema: jsonValueSchema.optional(),
    type: z.string().nullable().optional(),
    cache_control: cacheControlSchema,
  })
  .catchall(jsonValueSchema);

/** A tool definition of the request. */
export type AnthropicToolParam = z.infer<typeof anthropicToolSchema>;

/**
 * Schema of the request-like value the codec reads and writes: `{ system?, messages, tools? }`. Other request
 * parameters (`model`, `max_tokens`, `tool_choice`, …) are accepted and round-trip unchanged.
 */
export const anthropicRequestSchema = z
  .object({
    system: z.union([z.string(), z.array(textBlockSchema)]).optional(),
    messages: z.array(anthropicMessageSchema),
    tools: z.array(anthropicToolSchema).optional(),
  })
  .catchall(jsonValueSchema);

/** The Anthropic Messages request (or the part of it that holds the conversation). */
export type AnthropicRequest = z.infer<typeof anthropicRequestSchema>;
