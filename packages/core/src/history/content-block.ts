import { z } from 'zod';
import { jsonValueSchema, type JsonValue } from './json-value.js';
import { providerMetadataSchema, type ProviderMetadata } from './provider-metadata.js';

/** Plain text: a user's message, an assistant's answer, or text attached to a tool entry. */
export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
  readonly providerMetadata?: ProviderMetadata;
}

/** A tool invocation made by the assistant. Only allowed in `ai` entries. */
export interface ToolCallBlock {
  readonly type: 'tool_call';
  /** Provider-assigned call id; a `tool_response` answers it with the same `callId`. */
  readonly id: string;
  readonly name: string;
  /** The call's arguments. Usually an object; malformed calls may carry a string or null (spec 000 EC-050/051). */
  readonly parameters: JsonValue;
  readonly providerMetadata?: ProviderMetadata;
}

/** The result of a tool call. Only allowed in `tool` entries. */
export interface ToolResponseBlock {
  readonly type: 'tool_response';
  /** The `id` of the `tool_call` this answers. */
  readonly callId: string;
  readonly toolName: string;
  /** The tool's output: a string, or structured content (e.g. a list of text and image parts). */
  readonly result: JsonValue;
  /** True when the tool reported a failure. */
  readonly isError?: boolean;
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * Model reasoning. Only allowed in `ai` entries. Strategies keep thinking blocks verbatim or drop them whole: the
 * `signature` must stay byte-identical for providers to accept the block again.
 */
export interface ThinkingBlock {
  readonly type: 'thinking';
  /** The reasoning text; for redacted thinking, the provider's opaque payload. */
  readonly thought: string;
  /** Provider signature, kept verbatim. */
  readonly signature?: string;
  /** True for redacted (encrypted) thinking, whose `thought` is not human-readable. */
  readonly redacted?: boolean;
  readonly providerMetadata?: ProviderMetadata;
}

/** An image, document or other binary attachment, inline (base64 `data`) or by `url`. */
export interface MediaBlock {
  readonly type: 'media';
  /** IANA media type, e.g. `image/png` or `application/pdf`. */
  readonly mediaType: string;
  /** Base64-encoded content; exactly one of `data` and `url` is set. */
  readonly data?: string;
  readonly url?: string;
  readonly filename?: string;
  readonly providerMetadata?: ProviderMetadata;
}

/** One piece of a history entry. */
export type ContentBlock = TextBlock | ToolCallBlock | ToolResponseBlock | ThinkingBlock | MediaBlock;

/** Schema of a {@link TextBlock}. */
export const textBlockSchema = z.strictObject({
  type: z.literal('text'),
  text: z.string(),
  providerMetadata: providerMetadataSchema.optional(),
}) satisfies z.ZodType<TextBlock>;

const toolCallBlockSchema = z.strictObject({
  type: z.literal('tool_call'),
  id: z.string().min(1, 'Expected a non-empty tool call id'),
  name: z.string().min(1, 'Expected a non-empty tool name'),
  parameters: jsonValueSchema,
  providerMetadata: providerMetadataSchema.optional(),
}) satisfies z.ZodType<ToolCallBlock>;

const toolResponseBlockSchema = z.strictObject({
  type: z.literal('tool_response'),
  callId: z.string().min(1, 'Expected the non-empty id of the tool call this answers'),
  toolName: z.string(),
  result: jsonValueSchema,
  isError: z.boolean().optional(),
  providerMetadata: providerMetadataSchema.optional(),
}) satisfies z.ZodType<ToolResponseBlock>;

const thinkingBlockSchema = z.strictObject({
  type: z.literal('thinking'),
  thought: z.string(),
  signature: z.string().optional(),
  redacted: z.boolean().optional(),
  providerMetadata: providerMetadataSchema.optional(),
}) satisfies z.ZodType<ThinkingBlock>;

const mediaBlockSchema = z
  .strictObject({
    type: z.literal('media'),
    mediaType: z.string().min(1, 'Expected a media type such as image/png'),
    data: z.string().optional(),
    url: z.string().optional(),
    filename: z.string().optional(),
    providerMetadata: providerMetadataSchema.optional(),
  })
  .refine((block) => (block.data === undefined) !== (block.url === undefined), {
    message: 'Expected exactly one of `data` (base64) and `url`',
  }) satisfies z.ZodType<MediaBlock>;

/** Schema of a {@link ContentBlock}, discriminated by `type`. */
export const contentBlockSchema = z.discriminatedUnion('type', [
  textBlockSchema,
  toolCallBlockSchema,
  toolResponseBlockSchema,
  thinkingBlockSchema,
  mediaBlockSchema,
]) satisfies z.ZodType<ContentBlock>;
