import { z } from 'zod';
import { textBlockSchema, type TextBlock } from './content-block.js';
import { historyEntrySchema, type HistoryEntry } from './history-entry.js';
import { jsonValueSchema, type JsonValue } from './json-value.js';
import { providerMetadataSchema, type ProviderMetadata } from './provider-metadata.js';

/** A tool the model may call. Sent with every request, so it counts toward the budget. */
export interface ToolDefinition {
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of the tool's parameters. */
  readonly inputSchema?: JsonValue;
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * Everything sent to the model: system instructions and tool definitions held beside the history. Strategies
 * compress only `history`; `system` and `tools` count toward the budget and are left alone.
 *
 * Serialized to a file, a conversation carries `format: 'ctx.conversation.v1'`.
 */
export interface Conversation {
  readonly format?: 'ctx.conversation.v1';
  readonly system?: readonly TextBlock[];
  readonly tools?: readonly ToolDefinition[];
  readonly history: readonly HistoryEntry[];
  readonly providerMetadata?: ProviderMetadata;
}

/** Schema of a {@link ToolDefinition}. */
export const toolDefinitionSchema = z.strictObject({
  name: z.string().min(1, 'Expected a non-empty tool name'),
  description: z.string().optional(),
  inputSchema: jsonValueSchema.optional(),
  providerMetadata: providerMetadataSchema.optional(),
}) satisfies z.ZodType<ToolDefinition>;

/** Schema of a {@link Conversation}. */
export const conversationSchema = z.strictObject({
  format: z.literal('ctx.conversation.v1').optional(),
  system: z.array(textBlockSchema).optional(),
  tools: z.array(toolDefinitionSchema).optional(),
  history: z.array(historyEntrySchema),
  providerMetadata: providerMetadataSchema.optional(),
}) satisfies z.ZodType<Conversation>;
